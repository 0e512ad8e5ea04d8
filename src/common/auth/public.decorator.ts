import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'outpost:public';

/** Opts a route out of the global credentials guard. Everything else needs credentials. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
