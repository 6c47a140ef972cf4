// WireProtocolIT's node-postgres client: the statements a Node user would send, one line each out.
// Usage: node node_pg_client.js <port> <certificate> <schema>; the token in MT_TOKEN.
const fs = require('fs');
const { Client } = require('pg');

const [port, certificate, schema] = process.argv.slice(2);

async function main() {
  const client = new Client({
    host: 'localhost',
    port: Number(port),
    database: 'mtables',
    user: 'tests',
    password: process.env.MT_TOKEN,
    ssl: { ca: fs.readFileSync(certificate) },
  });
  await client.connect();
  const all = await client.query(`SELECT ds, n FROM ${schema}.daily ORDER BY ds`);
  console.log('rows', all.rows.map((r) => `${r.ds}=${r.n}`).join(','));
  // A parameter: node-postgres sends Parse, Bind, Describe, Execute and Sync.
  const one = await client.query(`SELECT n FROM ${schema}.daily WHERE ds = $1`, ['2026-11-29']);
  console.log('param', one.rows[0].n);
  try {
    await client.query(`SELECT * FROM ${schema}.nowhere`);
  } catch (error) {
    console.log('error', error.code, error.position);
  }
  const tables = await client.query(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
    [schema]);
  console.log('tables', tables.rows.map((r) => r.table_name).join(','));
  await client.end();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
