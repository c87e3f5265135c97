export * from './hand';
export * from './bidding';
export * from './variants';
