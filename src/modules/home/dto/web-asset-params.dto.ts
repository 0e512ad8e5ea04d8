import { Matches } from 'class-validator';

/** `/web/<file>`: a built file at the top of dist/web (the shared stylesheet). */
export class WebFileParamsDto {
  @Matches(/^[a-z0-9][a-z0-9-]*\.(js|css|map|svg)$/, { message: 'file must name a built web file' })
  file!: string;
}

/** `/web/<entry>/<file>`: a built file of one web entry (`app/main.js`). */
export class WebEntryFileParamsDto extends WebFileParamsDto {
  @Matches(/^[a-z0-9][a-z0-9-]*$/, { message: 'entry must name a web entry' })
  entry!: string;
}
