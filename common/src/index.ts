export * from './rules';
export * from './bots';
// protocol exports are added by the backend team
export * from './protocol';
