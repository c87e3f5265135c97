export * from './http';
export * from './chat';
export * from './text';
export * from './games';
export * from './socket';
export * from './replay';
export * from './ratings';
