export * from './rules';
export * from './bots';
export * from './rating';
export * from './matchmaking';
export * from './tournament';
// protocol exports are added by the backend team
export * from './protocol';
