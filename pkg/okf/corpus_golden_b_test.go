package okf

// Golden cards of the real bundle roots in the corpus, second half in
// MANIFEST order (see goldenCardsA).
var goldenCardsB = map[string]goldenCard{
	"ImperialBower__cardpack.rs/.okf/index.md": {
		name:    "cardpack.rs Knowledge Bundle",
		version: "0.1", concepts: 6,
		first: []Concept{
			{"Getting started", gh + "ImperialBower/cardpack.rs/HEAD/.okf/getting-started.md", "how this bundle is organized and where to start reading."},
			{"Architecture", gh + "ImperialBower/cardpack.rs/HEAD/.okf/architecture/index.md", "crate design: the card model, feature flags, kernel purity, funky engine, localization."},
			{"Decks", gh + "ImperialBower/cardpack.rs/HEAD/.okf/decks/index.md", "the 14 shipped deck kinds and how to author custom decks."},
		},
	},
	"ctcac00__dbt-okf/.okf/index.md": {
		name:    "grocery_ops_demo Knowledge Bundle",
		version: "0.1", concepts: 5,
		first: []Concept{
			{"Project", gh + "ctcac00/dbt-okf/HEAD/.okf/project.md", "overview, stack, and conventions"},
			{"Sources", gh + "ctcac00/dbt-okf/HEAD/.okf/sources/index.md", "raw seed CSV data (the origin layer)"},
			{"Models", gh + "ctcac00/dbt-okf/HEAD/.okf/models/index.md", "staging, intermediate, and mart dbt models"},
		},
	},
	"copperbox__okf-mcp/okf-bundle/index.md": {
		name: "copperbox/okf-mcp · okf-bundle", fellBack: true,
		version: "0.2", concepts: 5,
		first: []Concept{
			{"architecture", gh + "copperbox/okf-mcp/HEAD/okf-bundle/architecture/index.md", ""},
			{"decisions", gh + "copperbox/okf-mcp/HEAD/okf-bundle/decisions/index.md", ""},
			{"gotchas", gh + "copperbox/okf-mcp/HEAD/okf-bundle/gotchas/index.md", ""},
		},
	},
	"copperbox__okf-mcp/test/fixtures/acme/index.md": {
		name: "copperbox/okf-mcp · test/fixtures/acme", fellBack: true,
		version: "0.1", concepts: 3,
		first: []Concept{
			{"datasets", gh + "copperbox/okf-mcp/HEAD/test/fixtures/acme/datasets/index.md", ""},
			{"playbooks", gh + "copperbox/okf-mcp/HEAD/test/fixtures/acme/playbooks/index.md", ""},
			{"tables", gh + "copperbox/okf-mcp/HEAD/test/fixtures/acme/tables/index.md", ""},
		},
	},
	"copperbox__okf-mcp/test/fixtures/malformed/index.md": {
		name: "copperbox/okf-mcp · test/fixtures/malformed", fellBack: true,
		version: "0.1", concepts: 1,
		first: []Concept{
			{"guides", gh + "copperbox/okf-mcp/HEAD/test/fixtures/malformed/guides/index.md", ""},
		},
	},
	"saschb2b__okf-bundles/bundles/hello-okf/index.md": {
		name:    "hello-okf",
		version: "0.2", concepts: 5,
		first: []Concept{
			{"Active customer", gh + "saschb2b/okf-bundles/HEAD/bundles/hello-okf/active-customer.md", "The metric: what counts as an active customer, and what does not."},
			{"Customer status policy", gh + "saschb2b/okf-bundles/HEAD/bundles/hello-okf/customer-status-policy.md", "The business rule the metric implements, and who owns it."},
			{"Customers table", gh + "saschb2b/okf-bundles/HEAD/bundles/hello-okf/customers-table.md", "Where the data lives, and which columns matter."},
		},
	},
	"saschb2b__okf-bundles/bundles/okf/index.md": {
		name:    "OKF",
		version: "0.2", concepts: 7,
		first: []Concept{
			{"How an agent's context works", gh + "saschb2b/okf-bundles/HEAD/bundles/okf/context/index.md", "5 concepts. The context window as a desk that is cleared every turn, the assembly step that fills it, the gap between world knowledge and yours, why your knowledge is scattered across surfaces no agent can read, and the history of why one agreed format beats a better bespoke one."},
			{"The current toolbox, honestly", gh + "saschb2b/okf-bundles/HEAD/bundles/okf/approaches/index.md", "14 concepts. Prompt stuffing, fine-tuning, retrieval with its four failure modes and how to run it alongside a bundle, the \"bigger windows will fix it\" objection, tools and MCP, Agent Skills, briefing files, data catalogs and semantic layers, knowledge graphs and ontologies, the LLM-wiki and Obsidian-style second-brain lineage OKF descends from, and format versus protocol."},
			{"The v0.2 specification, worked through", gh + "saschb2b/okf-bundles/HEAD/bundles/okf/spec/index.md", "13 concepts. Bundles, concept documents, concept IDs, core frontmatter, body conventions, cross-linking, index and log files, conformance, versioning, extensions, design principles, and non-goals."},
		},
	},
	"saschb2b__okf-bundles/bundles/blockchain/index.md": {
		name:    "Blockchain",
		version: "0.2", concepts: 5,
		first: []Concept{
			{"The primitives every chain builds on", gh + "saschb2b/okf-bundles/HEAD/bundles/blockchain/concepts/index.md", "Hashing, signatures, Merkle trees, blocks, transactions, consensus (proof of work and proof of stake), the UTXO and account models, mempool, finality, forks, smart contracts, gas and fees, nodes, native tokens, and the scalability trilemma."},
			{"Bitcoin", gh + "saschb2b/okf-bundles/HEAD/bundles/blockchain/bitcoin/index.md", "Peer-to-peer electronic cash secured by proof of work, with a fixed 21M supply."},
			{"Ethereum", gh + "saschb2b/okf-bundles/HEAD/bundles/blockchain/ethereum/index.md", "The programmable \"world computer\": smart contracts under proof of stake."},
		},
	},
	"saschb2b__okf-bundles/bundles/rezepte/index.md": {
		name:    "Rezepte",
		version: "0.2", concepts: 48,
		first: []Concept{
			{"Japanisches Curry", gh + "saschb2b/okf-bundles/HEAD/bundles/rezepte/gerichte/japanisches-curry.md", "Mildes, dickes Currygericht über Kurzkornreis, mit selbst gemachtem Roux."},
			{"Japanisches Curry nach Kenji", gh + "saschb2b/okf-bundles/HEAD/bundles/rezepte/gerichte/japanisches-curry-kenji.md", "Dieselbe Familie in der schnellen Ein-Topf-Fassung, mit Rosinen und Honig."},
			{"Chicken Curry (indische Art)", gh + "saschb2b/okf-bundles/HEAD/bundles/rezepte/gerichte/chicken-curry-indisch.md", "Currypaste, über Nacht mariniertes Fleisch, Kokosmilch."},
		},
	},
	"saschb2b__okf-bundles/bundles/deutsches-recht/index.md": {
		name:    "Deutsches Recht",
		version: "0.2", concepts: 199,
		first: []Concept{
			{"Anspruchsaufbau", gh + "saschb2b/okf-bundles/HEAD/bundles/deutsches-recht/methodik/anspruchsaufbau.md", "Wer will was von wem woraus; Prüfungsreihenfolge."},
			{"Gutachtenstil", gh + "saschb2b/okf-bundles/HEAD/bundles/deutsches-recht/methodik/gutachtenstil.md", "Obersatz, Definition, Subsumtion, Ergebnis."},
			{"Auslegung", gh + "saschb2b/okf-bundles/HEAD/bundles/deutsches-recht/methodik/auslegung.md", "Die vier Methoden; Erklärungen nach §§ 133, 157."},
		},
	},
	"saschb2b__okf-bundles/bundles/ticket-writing/index.md": {
		name:    "Ticket writing and slicing",
		version: "0.2", concepts: 24,
		first: []Concept{
			{"The Iceberg", gh + "saschb2b/okf-bundles/HEAD/bundles/ticket-writing/smells/iceberg.md", "Looks small, hides most of its work below the waterline."},
			{"The Siamese Twins", gh + "saschb2b/okf-bundles/HEAD/bundles/ticket-writing/smells/siamese-twins.md", "Split on paper, technically inseparable."},
			{"The Tapper", gh + "saschb2b/okf-bundles/HEAD/bundles/ticket-writing/smells/tapper.md", "Written by one expert, decodable by no one."},
		},
	},
	"saschb2b__okf-bundles/.agents/skills/no-slop/references/index.md": {
		name:    "The writing system and per-surface before/after guidance behind the no-slop skill.",
		version: "0.2", concepts: 8,
		first: []Concept{
			{"no-slop: Simplified Technical English", gh + "saschb2b/okf-bundles/HEAD/.agents/skills/no-slop/references/ste.md", "The ASD-STE100 construction rules behind the no-slop skill, the two modes, and the measured evidence that a writing system beats a banned-word list."},
			{"no-slop: code comments", gh + "saschb2b/okf-bundles/HEAD/.agents/skills/no-slop/references/code-comments.md", "The slop comment is written for the reviewer of one change and then stranded in code that outlives the review."},
			{"no-slop: strings in code", gh + "saschb2b/okf-bundles/HEAD/.agents/skills/no-slop/references/code-strings.md", "Test names, error messages, and log lines are read by a human at the worst moment, when a test fails or production breaks."},
		},
	},
	"saschb2b__okf-bundles/.claude/skills/no-slop/references/index.md": {
		name:    "The writing system and per-surface before/after guidance behind the no-slop skill.",
		version: "0.2", concepts: 8,
		first: []Concept{
			{"no-slop: Simplified Technical English", gh + "saschb2b/okf-bundles/HEAD/.claude/skills/no-slop/references/ste.md", "The ASD-STE100 construction rules behind the no-slop skill, the two modes, and the measured evidence that a writing system beats a banned-word list."},
			{"no-slop: code comments", gh + "saschb2b/okf-bundles/HEAD/.claude/skills/no-slop/references/code-comments.md", "The slop comment is written for the reviewer of one change and then stranded in code that outlives the review."},
			{"no-slop: strings in code", gh + "saschb2b/okf-bundles/HEAD/.claude/skills/no-slop/references/code-strings.md", "Test names, error messages, and log lines are read by a human at the worst moment, when a test fails or production breaks."},
		},
	},
	"jkroepke__okf-crossplane-v2/catalog/index.md": {
		name:    "Crossplane Knowledge Catalog",
		version: "0.2", concepts: 7,
		first: []Concept{
			{"Develop a Crossplane v2 Composition", gh + "jkroepke/okf-crossplane-v2/HEAD/catalog/composition-developer-starter.md", "Route through API and provider contracts, pipeline and security, and the mandatory testing and packaging gate."},
			{"Crossplane Core", gh + "jkroepke/okf-crossplane-v2/HEAD/catalog/core/index.md", "Release-pinned concepts for the Crossplane v2 composition and managed-resource model."},
			{"Crossplane CLI", gh + "jkroepke/okf-crossplane-v2/HEAD/catalog/cli/index.md", "Local rendering and other command-line authoring workflows."},
		},
	},
	"wfukatsu__OKF-ScalarDB-ScalarDL/okf/index.md": {
		name:    "ScalarDB / ScalarDL Knowledge Bundle",
		tagline: "ScalarDB, ScalarDL and ScalarDB Saga documentation organised per product and per version for AI-assisted design, implementation and operations.",
		version: "0.2", typ: "Knowledge Bundle", concepts: 7,
		first: []Concept{
			{"How to use this bundle", gh + "wfukatsu/OKF-ScalarDB-ScalarDL/HEAD/okf/guides/how-ai-agents-use-this-bundle.md", "read this first."},
			{"Choosing a product, edition and version", gh + "wfukatsu/OKF-ScalarDB-ScalarDL/HEAD/okf/guides/product-and-version-selection.md", ""},
			{"Keeping the bundle current", gh + "wfukatsu/OKF-ScalarDB-ScalarDL/HEAD/okf/guides/bundle-maintenance.md", ""},
		},
	},
	"shinzui__okf-profiles/docs/adr/index.md": {
		name: "shinzui/okf-profiles · docs/adr", fellBack: true,
		version: "0.2", concepts: 10,
		first: []Concept{
			{"profile.dhall", gh + "shinzui/okf-profiles/HEAD/docs/adr/profile.dhall", ""},
			{"The house status key diverges from OKF v0.2", gh + "shinzui/okf-profiles/HEAD/docs/adr/0001-house-status-diverges-from-okf-v0-2.md", "Five profiles keep their own status vocabulary; only the two PostgreSQL profiles adopt OKF's."},
			{"A profile flips to OKF v0.2 atomically", gh + "shinzui/okf-profiles/HEAD/docs/adr/0002-a-profile-flips-to-okf-v0-2-atomically.md", "okf compile-checks okfVersion against the rules a profile declares, in both directions, so partial adoption is impossible."},
		},
	},
	"shinzui__okf-profiles/fixtures/architecture-decisions/index.md": {
		name:    "Architecture Decision Record",
		version: "0.2", concepts: 2,
		first: []Concept{
			{"Use stable identifiers", gh + "shinzui/okf-profiles/HEAD/fixtures/architecture-decisions/0001-use-stable-identifiers.md", "Give each ADR a rename-stable handle."},
			{"Keep local links inside one repository", gh + "shinzui/okf-profiles/HEAD/fixtures/architecture-decisions/0002-keep-local-links.md", "Keep same-repository ADR references usable without registry access."},
		},
	},
	"shinzui__okf-profiles/fixtures/architecture-decisions-invalid/nested-path/index.md": {
		name: "shinzui/okf-profiles · fixtures/architecture-decisions-invalid/nested-path", fellBack: true,
		version: "0.2", concepts: 1,
		first: []Concept{
			{"nested/", gh + "shinzui/okf-profiles/HEAD/fixtures/architecture-decisions-invalid/nested-path/nested/index.md", ""},
		},
	},
	"firebase__firebaseui-web/developer-docs/index.md": {
		name:    "developer-docs",
		tagline: "OKF knowledge bundle entry point for firebaseui-web.",
		version: "0.1", typ: "Index", concepts: 9,
		first: []Concept{
			{"documentation-policy.md", gh + "firebase/firebaseui-web/HEAD/developer-docs/documentation-policy.md", "rules for writing and maintaining docs in this repo"},
			{"decisions.md", gh + "firebase/firebaseui-web/HEAD/developer-docs/decisions.md", "architecture decision log (AD-<number> entries)"},
			{"architecture/examples-inventory.md", gh + "firebase/firebaseui-web/HEAD/developer-docs/architecture/examples-inventory.md", "example apps, ports, dev commands, emulator wiring"},
		},
	},
	"firebase__FirebaseUI-Android/okf-bundle/index.md": {
		name:    "FirebaseUI-Android knowledge bundle",
		version: "0.1", concepts: 9,
		first: []Concept{
			{"Documentation/commit policy", gh + "firebase/FirebaseUI-Android/HEAD/okf-bundle/documentation-policy.md", "durable vs ephemeral, commits as documentation, PR titles, OKF consistency"},
			{"CI workflows", gh + "firebase/FirebaseUI-Android/HEAD/okf-bundle/ci-workflows/index.md", "GitHub Actions job shape (android.yml, e2e_test.yml), failure log triage"},
			{"Agent command policy", gh + "firebase/FirebaseUI-Android/HEAD/okf-bundle/testing/agent-command-policy.md", "allowlisted shell commands for agents (Gradle, scripts, emulator, validation)"},
		},
	},
	"invertase__react-native-firebase/okf-bundle/index.md": {
		name:    "React Native Firebase knowledge bundle",
		version: "0.1", concepts: 18,
		first: []Concept{
			{"Documentation/commit policy", gh + "invertase/react-native-firebase/HEAD/okf-bundle/documentation-policy.md", "durable vs ephemeral, commits as documentation, PR titles, OKF consistency"},
			{"Documentation site maintenance", gh + "invertase/react-native-firebase/HEAD/okf-bundle/documentation-site-maintenance.md", "docs.json, TypeDoc reference site, legacy /reference/ redirect audits"},
			{"CI workflows", gh + "invertase/react-native-firebase/HEAD/okf-bundle/ci-workflows/index.md", "GitHub Actions reliability, logs, Detox/Jet troubleshooting"},
		},
	},
	"Jidoseal__awesome-okf/bundle/index.md": {
		name:    "Awesome OKF Bundle",
		version: "0.2", concepts: 38,
		first: []Concept{
			{"OKF v0.2 Specification (SPEC.md)", gh + "Jidoseal/awesome-okf/HEAD/bundle/specification/okf-v0-2-specification-spec-md.md", "The universal, vendor-neutral spec, including conformance criteria and reserved filenames. v0.2 (July 2026) makes provenance (sources), trust (generated / verified), lifecycle (status / stale_after), and attested computations first-class; it supersedes v0.1's timestamp field and body # Citations list. The v0.1 text stays readable at a pinned commit."},
			{"GoogleCloudPlatform/knowledge-catalog okf/", gh + "Jidoseal/awesome-okf/HEAD/bundle/specification/googlecloudplatform-knowledge-catalog-okf.md", "The home repository for the format, reference code, and samples."},
			{"OKF README", gh + "Jidoseal/awesome-okf/HEAD/bundle/specification/okf-readme.md", "Overview of OKF philosophy, installation, and usage."},
		},
	},
	"sathish-dev-git__okf-bundle/bundle/index.md": {
		name:    "Zoho Analytics REST API v2 - Open Knowledge Format bundle",
		version: "0.2", concepts: 45,
		first: []Concept{
			{"Zoho Analytics REST API v2 - overview", gh + "sathish-dev-git/okf-bundle/HEAD/bundle/overview.md", "What the Zoho Analytics REST API v2 is, how it is organized into 10 domains and 168 endpoints, and the five conventions every call shares."},
			{"Endpoint catalog", gh + "sathish-dev-git/okf-bundle/HEAD/bundle/endpoint-catalog.md", "All 168 Zoho Analytics REST API v2 endpoints in one table: method, path, operation ID, group, OAuth scope, success status and organization-header requirement."},
			{"How to use this bundle", gh + "sathish-dev-git/okf-bundle/HEAD/bundle/how-to-use-this-bundle.md", "Structure of the Zoho Analytics REST API v2 OKF bundle, the frontmatter contract of each concept type, and navigation rules for AI assistants, SDK generators, Postman runners and MCP servers."},
		},
	},
	"essamrafie__okf-converter/okf-bundle/index.md": {
		name: "essamrafie/okf-converter · okf-bundle", fellBack: true,
		version: "0.1", concepts: 5,
		first: []Concept{
			{"OKF Demo Service Configuration", gh + "essamrafie/okf-converter/HEAD/okf-bundle/config.md", ""},
			{"Item Values and Active Status", gh + "essamrafie/okf-converter/HEAD/okf-bundle/data.md", ""},
			{"OKF Greeting Module", gh + "essamrafie/okf-converter/HEAD/okf-bundle/hello.md", ""},
		},
	},
	"urbanhobbit__bilgi-llm-wiki/okf-bundle/index.md": {
		name:    "Bilgi-LLM Wiki — OKF Bundle",
		version: "0.1", concepts: 2,
		first: []Concept{
			{"Kavramlar", gh + "urbanhobbit/bilgi-llm-wiki/HEAD/okf-bundle/concepts/index.md", "6 temel araştırma kavramı"},
			{"Kaynaklar (Sourcelar)", gh + "urbanhobbit/bilgi-llm-wiki/HEAD/okf-bundle/entities/index.md", "14 kaynak kurum ve yayıncı"},
		},
	},
	"_unattributed__findstring-62526408826/index.md": {
		name:    "agents",
		version: "0.1", concepts: 43,
		first: []Concept{
			{"AI Engineering", gh + "_unattributed/findstring-62526408826/HEAD/ai-engineering.md", "[Overview] - Personal knowledge base for AI engineering concepts."},
			{"Agent", gh + "_unattributed/findstring-62526408826/HEAD/agents/agent.md", "[Overview] - The loop, planning, subagents, tools, and memory that turn an LLM into a task-completing agent."},
			{"Agent Client Protocol", gh + "_unattributed/findstring-62526408826/HEAD/agents/ACP.md", "[Standard] - ACP standardizes communication between code editors/IDEs and coding agents."},
		},
	},
	"_unattributed__findstring-59527638711/index.md": {
		name: "_unattributed/findstring-59527638711", fellBack: true,
		tagline: "rite Experience Wiki — プロジェクト固有の経験則 bundle（OKF v0.2 準拠）",
		version: "0.2", concepts: 2,
		first: []Concept{
			{"vendor した生成テンプレートは消費者側で意味を持たないコメント参照を削除で解消する", gh + "_unattributed/findstring-59527638711/HEAD/pages/heuristics/vendored-template-comment-cleanup.md", "heuristics · 生成器のテンプレートをそのままコミットすると、削除済みマーカーや上流リポジトリ相対パスへのコメント参照が残り読者が追跡先を失う。設定値を変えず参照行だけ削除し、消費者側で意味を持つ情報のみ残すのが最小差分で、upgrade 差分ノイズとの天秤で判断する。 · 2026-09-02T10:30:00+00:00 · high"},
			{".NET プロジェクトでは rite の commands 自動検出が効かないため csproj 作成後に明示設定する", gh + "_unattributed/findstring-59527638711/HEAD/pages/heuristics/dotnet-commands-explicit-config.md", "heuristics · rite の build/test/lint 自動検出は package.json や pyproject.toml 等を手がかりにするため .NET では null のままになり、テスト検証が skip され TDD が degraded になる。csproj 作成後に dotnet コマンドを rite-config.yml へ明示する。 · 2026-09-02T10:30:00+00:00 · medium"},
		},
	},
	"_unattributed__findstring-63638829135/index.md": {
		name:    "How a Slack digital worker was built",
		version: "0.3", concepts: 6,
		first: []Concept{
			{"worker", gh + "_unattributed/findstring-63638829135/HEAD/worker/index.md", "what it is, before how it was set up"},
			{"setup", gh + "_unattributed/findstring-63638829135/HEAD/setup/index.md", "the reproducible path to a worker on shift"},
			{"gotchas", gh + "_unattributed/findstring-63638829135/HEAD/gotchas/index.md", "behaviour the documentation does not describe"},
		},
	},
}
