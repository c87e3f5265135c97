export * from './rules';
export * from './bots';
export * from './rating';
// protocol exports are added by the backend team
export * from './protocol';
