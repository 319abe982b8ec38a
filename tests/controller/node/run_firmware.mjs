// Runs the firmware scenarios under the MicroPython WebAssembly build: the firmware package, the simulated
// hardware and the scenarios are copied into MicroPython's file system, then fw_scenarios.main() runs.
// Usage: node run_firmware.mjs REPO_ROOT [heap bytes]. Exit code 0 only when every scenario passed.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const root = process.argv[2];
const heapsize = Number(process.argv[3] || 192 * 1024); // about what a Pico leaves for Python
let output = "";
const mp = await loadMicroPython({
  heapsize,
  stdout: (line) => { output += line + "\n"; process.stdout.write(line + "\n"); },
  stderr: (line) => { output += line + "\n"; process.stderr.write(line + "\n"); },
});
mp.FS.mkdirTree("/lib/tablectl");
const firmware = join(root, "firmware", "tablectl");
for (const name of readdirSync(firmware).filter((n) => n.endsWith(".py"))) {
  mp.FS.writeFile(`/lib/tablectl/${name}`, readFileSync(join(firmware, name)));
}
mp.FS.writeFile("/lib/simhw.py", readFileSync(join(root, "companion", "link", "simhw.py")));
mp.FS.writeFile("/lib/fw_scenarios.py", readFileSync(join(root, "tests", "controller", "fw_scenarios.py")));
try {
  mp.runPython("import sys\nsys.path.append('/lib')\nimport fw_scenarios\nfailed = fw_scenarios.main()");
} catch (err) {
  console.error(String(err));
  process.exit(2);
}
process.exit(mp.globals.get("failed") === 0 && output.includes(" passed, 0 failed") ? 0 : 1);
