import { PGlite } from "@electric-sql/pglite";

let t = Date.now();
const a = await PGlite.create();
console.log("create", Date.now() - t);
t = Date.now();
await a.exec("create table x(id int); insert into x values (1)");
const dump = await a.dumpDataDir("none");
console.log("dump", Date.now() - t, dump.size);
t = Date.now();
const b = await PGlite.create({ loadDataDir: dump });
console.log("load", Date.now() - t, (await b.query("select * from x")).rows);
t = Date.now();
if (a.clone) {
  const c = await a.clone();
  console.log("clone", Date.now() - t, (await c.query("select * from x")).rows);
}
