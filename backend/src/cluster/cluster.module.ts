import { Global, Module } from '@nestjs/common';
import { ClusterBus } from './cluster.bus';
import { ClusterNodes } from './cluster.nodes';

/**
 * Several nodes (issue #13): the node registry (PostgreSQL heartbeats) and node-to-node requests (Redis). Both
 * are inert unless `config.cluster.enabled` (DATABASE_URL + REDIS_URL).
 */
@Global()
@Module({ providers: [ClusterBus, ClusterNodes], exports: [ClusterBus, ClusterNodes] })
export class ClusterModule {}
