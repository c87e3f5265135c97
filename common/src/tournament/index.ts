export * from './types';
export * from './bracket';
export * from './prizes';
export * from './engine';
export * from './view';
