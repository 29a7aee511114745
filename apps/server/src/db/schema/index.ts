export * from './core';
export * from './devices';
export * from './master';
export * from './people';
export * from './packages';
export * from './audit';
export * from './codes';
export * from './branches';
