export * from './event-catalog';
export * from './events.publisher';
