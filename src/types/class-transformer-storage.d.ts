/** class-transformer keeps each member's `@Type` here; the package ships this module without its own types. */
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
