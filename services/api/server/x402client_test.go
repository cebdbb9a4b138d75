package server

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/okfindex/okf-index/services/api/server/billing"
)

// The end-to-end payment test: real x402 clients from npm (v2 @x402/fetch
// with @x402/evm, v1 x402-fetch; viem signs) pay the paid routes with a
// throwaway key, against the local facilitator that checks their EIP-3009
// signatures. No chain is reached. make test installs the clients
// (scripts/ensure-node-tools.sh) and names their directory in
// OKF_NODE_TOOLS; a bare go test skips.

// x402PayPrelude is the start of every npm client script: the call to make
// (URL, METHOD, BODY) and makePay(inner), the stock client of protocol
// VERSION signing with KEY around the fetch inner.
const x402PayPrelude = `
const { URL: url, METHOD: method, BODY: body, KEY: key, VERSION: version } = process.env;
async function makePay(inner) {
  if (version === "1") {
    const { wrapFetchWithPayment, createSigner } = await import("x402-fetch");
    return wrapFetchWithPayment(inner, await createSigner("base-sepolia", key), 30_000_000n);
  }
  const { wrapFetchWithPayment, x402Client } = await import("@x402/fetch");
  const { registerExactEvmScheme } = await import("@x402/evm/exact/client");
  const { privateKeyToAccount } = await import("viem/accounts");
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: privateKeyToAccount(key) });
  return wrapFetchWithPayment(inner, client);
}
const init = { method, headers: { "Content-Type": "application/json" } };
if (body) init.body = body;
`

// x402ClientScript pays one call and prints {status, body, settlement, v2}.
const x402ClientScript = x402PayPrelude + `
const resp = await (await makePay(fetch))(url, init);
const text = await resp.text();
console.log(JSON.stringify({ status: resp.status, body: text,
  settlement: resp.headers.get("PAYMENT-RESPONSE") || resp.headers.get("X-PAYMENT-RESPONSE") || "",
  v2: resp.headers.has("PAYMENT-RESPONSE") }));
`

type x402ClientResult struct {
	Status     int    `json:"status"`
	Body       string `json:"body"`
	Settlement string `json:"settlement"`
	V2         bool   `json:"v2"` // the settlement came in the v2 header
}

// runX402Client pays one call of the rig with an npm client.
func runX402Client(t *testing.T, r *payRig, version, method, path, body, key string) x402ClientResult {
	t.Helper()
	var res x402ClientResult
	runNodeScript(t, x402ClientScript, &res, "URL="+r.url+path, "METHOD="+method, "BODY="+body, "KEY="+key, "VERSION="+version)
	return res
}

// runNodeScript runs script with the installed Node tools and env, and
// decodes the last line it prints into out.
func runNodeScript(t *testing.T, script string, out any, env ...string) {
	t.Helper()
	bin := nodeTool(t, "redocly") // the directory of the installed Node tools
	modules := filepath.Dir(filepath.Dir(bin))
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "--input-type=module", "-e", script)
	cmd.Dir = filepath.Dir(modules)
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("node client: %v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(stdout)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), out); err != nil {
		t.Fatalf("client output %s: %v", stdout, err)
	}
}

func TestX402ClientsPay(t *testing.T) {
	t.Parallel()
	nodeTool(t, "redocly")
	for _, version := range []string{"1", "2"} {
		t.Run("v"+version, func(t *testing.T) {
			t.Parallel()
			r := newPayRig(t, nil, Options{})
			k, _ := crypto.GenerateKey()
			key := "0x" + hex.EncodeToString(crypto.FromECDSA(k))

			res := runX402Client(t, r, version, "POST", "/api/credito?usd=1", "", key)
			var p billing.CreditPurchase
			if res.Status != 200 || json.Unmarshal([]byte(res.Body), &p) != nil || p.BalanceUSD != "1.00" || res.Settlement == "" ||
				res.V2 != (version == "2") {
				t.Fatalf("credit purchase: %+v", res)
			}
			if b := r.balance(p.Token); b.BalanceMicros != 1_000_000 {
				t.Fatalf("balance %+v", b)
			}
			// The free message first (from the same loopback agent), then a paid one.
			body := string(contactBody(""))
			if res := runX402Client(t, r, version, "POST", "/api/contact", body, key); res.Status != 200 || !strings.Contains(res.Body, "agent_free") {
				t.Fatalf("free contact: %+v", res)
			}
			res = runX402Client(t, r, version, "POST", "/api/contact", body, key)
			if res.Status != 200 || !strings.Contains(res.Body, "agent_x402") || res.Settlement == "" {
				t.Fatalf("paid contact: %+v", res)
			}
			if r.fac.Transfers() != 2 {
				t.Fatalf("transfers %d, want 2", r.fac.Transfers())
			}
		})
	}
}
