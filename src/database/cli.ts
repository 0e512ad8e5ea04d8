/* Migration commands: `npm run migration:generate -- <Name>` and `npm run migration:run`. */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { parseAppEnv, parseDatabaseEnv } from '@/config/env';
import { chooseDatabase } from './database-url';
import { dataSourceOptions, describeDatabase } from './data-source.options';
import { stopEmbeddedDatabase } from './embedded';
import { runMigrationsLocked } from './migrate';

async function main() {
  const [command, name] = process.argv.slice(2);
  const { url } = await chooseDatabase(parseDatabaseEnv(process.env).url, parseAppEnv(process.env).dataDir);
  console.log(`migrations on ${describeDatabase(url)}`);
  const dataSource = await new DataSource(dataSourceOptions(url)).initialize();
  try {
    const ran = await runMigrationsLocked(dataSource);
    console.log(ran.length ? `ran: ${ran.join(', ')}` : 'schema is up to date');
    if (command === 'run') return;
    if (command !== 'generate' || !name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
      throw new Error('usage: migration:generate -- <PascalCaseName> | migration:run');
    }
    const sql = await dataSource.driver.createSchemaBuilder().log();
    if (sql.upQueries.length === 0) {
      console.log('no changes: the entities match the schema');
      return;
    }
    const timestamp = Date.now();
    const file = join(process.cwd(), 'src/database/migrations', `${timestamp}-${name}.ts`);
    const q = (text: string) => '`' + text.replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
    const up = sql.upQueries.map((query) => `    await queryRunner.query(${q(query.query)});`).join('\n');
    const down = sql.downQueries
      .reverse()
      .map((query) => `    await queryRunner.query(${q(query.query)});`)
      .join('\n');
    const source = `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${name}${timestamp} implements MigrationInterface {
  name = '${name}${timestamp}';

  public async up(queryRunner: QueryRunner): Promise<void> {
${up}
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
${down}
  }
}
`;
    writeFileSync(file, source);
    spawnSync('npx', ['prettier', '--write', file], { stdio: 'inherit' });
    console.log(`wrote ${file}: read it before you commit it`);
  } finally {
    await dataSource.destroy();
    await stopEmbeddedDatabase();
  }
}

main().catch(async (error: unknown) => {
  console.error(`outpost: ${error instanceof Error ? error.message : String(error)}`);
  await stopEmbeddedDatabase();
  process.exit(1);
});
