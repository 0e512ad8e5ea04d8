export * from './auth-registry';
export * from './authenticator';
export * from './credentials.guard';
export * from './principal.decorator';
export * from './public.decorator';
