/**
 * Client process of `bench:load` (forked by load.bench.ts; never inside the server): real socket.io clients for a
 * slice of the tables. It registers the users, creates the tables (one human + three bots, or four humans, plus
 * optional spectators), plays at the scheduled rate from what each socket received (legal moves from common's
 * rules, the same functions the server uses) and times every human action from emit to its ack and to the
 * first update that shows it. Also drives the bare echo baseline and the reconnect storm. With several server
 * nodes (`--nodes`) the sockets go round-robin over them, and each user's HTTP requests go to its socket's node
 * (`--http random`: to any node). Talks to the orchestrator over IPC (`process.send`); see the Command type in
 * clients.protocol.ts.
 */
import { Command, send } from './clients.protocol';
import { counters, mark } from './clients.state';
import { closeGame, collect, echo, setup, stop, storm, stormPrepare } from './clients.commands';

process.on('message', (c: Command) => {
  const run = async () => {
    switch (c.cmd) {
      case 'setup':
        return setup(c);
      case 'mark':
        mark();
        return send({ cmd: 'marked' });
      case 'collect':
        counters.measuring = false;
        return send({ cmd: 'collected', ...collect() });
      case 'storm-prepare':
        return stormPrepare(c.timeoutMs);
      case 'storm':
        return storm(c.timeoutMs);
      case 'echo':
        return echo(c);
      case 'close-game':
        return closeGame();
      case 'stop':
        stop();
    }
  };
  run().catch((e: unknown) => send({ cmd: 'failed', message: e instanceof Error ? e.message : String(e) }));
});
process.on('disconnect', () => process.exit(0));
