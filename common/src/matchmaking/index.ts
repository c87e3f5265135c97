export * from './matcher';
