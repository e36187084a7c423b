// Run a MicroPython script under the official WebAssembly port, like the unix port would:
//   node tools/mpy-wasm.mjs [-X heapsize=192K] script.py [args...]
// The repository's firmware/, sim/ and tests/ trees are copied into the port's in-memory
// file system at the same relative paths, so `sys.path` entries behave as under the unix port.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";

const argv = process.argv.slice(2);
let heap = 192 * 1024;
if (argv[0] === "-X") {
  const m = /^heapsize=(\d+)([KkMm]?)$/.exec(argv[1] || "");
  if (!m) { console.error("usage: mpy-wasm.mjs [-X heapsize=N[K|M]] script.py [args]"); process.exit(2); }
  heap = parseInt(m[1], 10) * (m[2] ? (/[Kk]/.test(m[2]) ? 1024 : 1048576) : 1);
  argv.splice(0, 2);
}
const script = argv[0];
if (!script) { console.error("usage: mpy-wasm.mjs [-X heapsize=N[K|M]] script.py [args]"); process.exit(2); }

const root = process.cwd();
const mp = await loadMicroPython({ heapsize: heap, stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), linebuffer: false });

function copyTree(rel) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return;
  const st = fs.statSync(abs);
  if (st.isDirectory()) {
    if (path.basename(abs) === "__pycache__") return;
    try { mp.FS.mkdir("/" + rel); } catch (e) { /* exists */ }
    for (const name of fs.readdirSync(abs)) copyTree(path.join(rel, name));
  } else if (/\.(py|mpy|json|txt|vec|csv)$/.test(rel)) {
    mp.FS.writeFile("/" + rel, fs.readFileSync(abs));
  }
}
for (const top of ["firmware", "sim", "tests"]) copyTree(top);
mp.FS.chdir("/");

const source = fs.readFileSync(path.join(root, script), "utf8");
const argvList = JSON.stringify([script, ...argv.slice(1)]);
try {
  // This port's sys has no argv and refuses new attributes: scripts read /_mpy_argv.py instead.
  mp.FS.writeFile("/_mpy_argv.py", `ARGV = ${argvList}\n`);
  mp.runPython(`import sys\nsys.path.insert(0, "")`);
  // This port collects garbage only between top-level calls (gc.collect() inside a call just
  // asks for one), so a script that measures the heap splits itself into top-level chunks with
  // this marker line; the chunks share their globals.
  for (const chunk of source.split(/^# ---- top level ----$/m)) mp.runPython(chunk);
} catch (e) {
  // MicroPython exceptions arrive as PythonError with the traceback text in .message
  process.stderr.write(String(e && e.message ? e.message : e) + "\n");
  process.exit(1);
}
