export * from './weng-lin';
export * from './rating';
export * from './simulate';
