export * from './tagged-error';
export * from './http-errors';
