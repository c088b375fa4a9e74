import { describe, expect, it } from "vitest";
import { analyzeCommand } from "./analyze.js";
import { ARITY, alwaysPattern } from "./arity.js";

const always = async (command: string) => (await analyzeCommand(command, { cwd: "/w", home: "/h" })).always;

describe("always suggestions stay as narrow as the command family", () => {
  it.each([
    ["consul kv get app/config", "consul kv get *"],
    ["consul kv delete app/config", "consul kv delete *"],
    ["vault kv get secret/x", "vault kv get *"],
    ["kubectl get pods -n x", "kubectl get *"],
    ["kubectl delete pod x", "kubectl delete *"],
    ["helm upgrade --install x ./chart", "helm upgrade *"],
    ["terraform plan -out tf.plan", "terraform plan *"],
    ["terraform state rm aws_instance.x", "terraform state rm *"],
    ["aws s3 cp a s3://b/a", "aws s3 cp *"],
    ["gcloud compute instances list", "gcloud compute instances list *"],
    ["az group list", "az group list *"],
    ["gh pr create --fill", "gh pr create *"],
    ["git stash pop", "git stash pop *"],
    ["npm run build", "npm run build *"],
    ["pnpm add -D vitest", "pnpm add *"],
    ["yarn workspace web build", "yarn workspace web build *"],
    ["bun run dev", "bun run dev *"],
    ["cargo build --release", "cargo build *"],
    ["go mod tidy", "go mod tidy *"],
    ["docker compose up -d", "docker compose up *"],
    ["systemctl restart nginx", "systemctl restart *"],
    ["brew services start postgresql", "brew services start *"],
    ["apt-get install -y jq", "apt-get install *"],
    ["pip install requests", "pip install *"],
    ["uv pip install requests", "uv pip install *"],
    ["poetry run pytest", "poetry run pytest *"],
    ["make test", "make test *"],
    // Fewer plain words than the family needs, or code given to run: only the exact command.
    ["git -C sub push", "git -C sub push"],
    ["python -c 'print(1)'", "python -c print(1)"],
    ["node script.js", "node script.js"],
    ["bash deploy.sh", "bash deploy.sh"],
  ])("%s → %s", async (command, expected) => {
    expect(await always(command)).toEqual([expected]);
  });

  it("looks names up safely: object keys are not arities", async () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      expect(Object.hasOwn(ARITY, name)).toBe(false);
      expect(alwaysPattern([{ raw: name, literal: true }, { raw: "x", literal: true }])).toBe(`${name} *`);
      expect(await always(`${name} x`)).toEqual([`${name} *`]);
    }
  });
});
