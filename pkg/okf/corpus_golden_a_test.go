package okf

// Golden cards of the real bundle roots in the corpus, first half in
// MANIFEST order: expected name, tagline, okf_version, type, concept count
// and first concepts, written down after reading each file. The root URL of
// each is https://raw.githubusercontent.com/<owner>/<repo>/HEAD/<index_path>.
var goldenCardsA = map[string]goldenCard{
	"claudiobottari__databricks-okf/index.md": {
		name: "claudiobottari/databricks-okf", fellBack: true,
		version: "0.1", concepts: 5120,
		first: []Concept{
			{"@distributed Decorator", gh + "claudiobottari/databricks-okf/HEAD/concepts/distributed-decorator.md", "A decorator from the serverless_gpu library that annotates functions to run across multiple GPUs, accepting parameters for GPU count and type."},
			{"@distributed Decorator Data Loading", gh + "claudiobottari/databricks-okf/HEAD/concepts/distributed-decorator-data-loading.md", "Best practice to load data inside the @distributed decorator to avoid pickle serialization issues when datasets are too large."},
			{"@distributed decorator for distributed training", gh + "claudiobottari/databricks-okf/HEAD/concepts/distributed-decorator-for-distributed-training.md", "A Python decorator from the serverless_gpu library that handles data parallelism across multiple GPUs, automatically managing rank, local rank, and world size environment variables."},
		},
	},
	"xcspl__mikrotik-docs-okf/index.md": {
		name:    "MikroTik RouterOS documentation",
		version: "0.2", concepts: 24,
		first: []Concept{
			{"Provenance and known limits", gh + "xcspl/mikrotik-docs-okf/HEAD/provenance.md", "What the base export is, why its docs are dated 2026-05-26, and the anydoc table-collapse / image-read caveats."},
			{"Current state (RouterOS up to 7.24.5)", gh + "xcspl/mikrotik-docs-okf/HEAD/current-state.md", "The now: versions, the September 2026 security advisories, what each release added (BGP, MLAG, the app store, ACME, device-mode), and the state of containers, ZeroTier, WireGuard, IPv6 and OSPFv3."},
			{"1.1 Getting started", gh + "xcspl/mikrotik-docs-okf/HEAD/11-getting-started/index.md", "25 sections."},
		},
	},
	"leavingme__x-news-wiki/index.md": {
		name:    "x-news Wiki Bundle",
		version: "0.1", concepts: 2,
		first: []Concept{
			{"📰 头条 (News)", gh + "leavingme/x-news-wiki/HEAD/sources/news/index.md", "3482 条，按日分目录"},
			{"✨ 亮点 (Highlights)", gh + "leavingme/x-news-wiki/HEAD/sources/highlights/index.md", "1347 条，按日分目录"},
		},
	},
	"ScaleLean__ultracart-okf-catalog/index.md": {
		name:    "UltraCart BigQuery Warehouse OKF Catalog",
		version: "0.1", concepts: 6,
		first: []Concept{
			{"Datasets", gh + "ScaleLean/ultracart-okf-catalog/HEAD/datasets/index.md", ""},
			{"Dataset-specific object docs", gh + "ScaleLean/ultracart-okf-catalog/HEAD/tables/index.md", ""},
			{"Canonical table definitions by object name", gh + "ScaleLean/ultracart-okf-catalog/HEAD/concepts/tables_by_name/index.md", ""},
		},
	},
	"ScaleLean__ultracart-okf-catalog/okf/ultracart_warehouse/index.md": {
		name:    "UltraCart BigQuery Warehouse OKF Catalog",
		version: "0.1", concepts: 6,
		first: []Concept{
			{"Datasets", gh + "ScaleLean/ultracart-okf-catalog/HEAD/okf/ultracart_warehouse/datasets/index.md", ""},
			{"Dataset-specific object docs", gh + "ScaleLean/ultracart-okf-catalog/HEAD/okf/ultracart_warehouse/tables/index.md", ""},
			{"Canonical table definitions by object name", gh + "ScaleLean/ultracart-okf-catalog/HEAD/okf/ultracart_warehouse/concepts/tables_by_name/index.md", ""},
		},
	},
	"eloybar__okf-skills/docs/okf/index.md": {
		name:    "OKF Skills Knowledge Bundle",
		version: "0.2", concepts: 10,
		first: []Concept{
			{"OKF Core Skill", gh + "eloybar/okf-skills/HEAD/docs/okf/concepts/okf-skill.md", "Specification and guidelines for authoring concepts."},
			{"OKF Maintain Skill", gh + "eloybar/okf-skills/HEAD/docs/okf/concepts/okf-maintain-skill.md", "Keep bundle validated and synchronized post-edit."},
			{"OKF Visualize Skill", gh + "eloybar/okf-skills/HEAD/docs/okf/concepts/okf-visualize-skill.md", "Render interactive dependency graphs."},
		},
	},
	"zeyos__client/okf/index.md": {
		name:    "ZeyOS Knowledge Bundle",
		version: "0.1", concepts: 4,
		first: []Concept{
			{"Entities", gh + "zeyos/client/HEAD/okf/entities/index.md", "64 API-backed entity concepts (schema, foreign keys, enums, indexes, operations)."},
			{"Metrics", gh + "zeyos/client/HEAD/okf/metrics/index.md", "Business metric definitions."},
			{"Playbooks", gh + "zeyos/client/HEAD/okf/playbooks/index.md", "Step-by-step query workflows."},
		},
	},
	"Netatalk__netatalk/okf/index.md": {
		name:    "Netatalk source knowledge bundle",
		version: "0.2", concepts: 34,
		first: []Concept{
			{"OKF Knowledge Graph", gh + "Netatalk/netatalk/HEAD/okf/reading.md", "Where the graph is, how to navigate it, the rules for reading it (trust an edge that exists, never the absence of one) and recipes over graph.json."},
			{"Build record", gh + "Netatalk/netatalk/HEAD/okf/build.md", "Netatalk commit d63155e132b2 rendered by process:okf-from-doxygen/1 from Doxygen 1.9.8."},
			{"bin/aecho", gh + "Netatalk/netatalk/HEAD/okf/src/bin/aecho.md", "1 file, 4 functions."},
		},
	},
	"floegence__redeven/okf/index.md": {
		name:    "Redeven OKF Bundle",
		version: "0.2", concepts: 66,
		first: []Concept{
			{"Database schema migration ownership", gh + "floegence/redeven/HEAD/okf/architecture/database-schema-migrations.md", "Automatically migrate Redeven product stores while Floret and ReDevPlugin schemas remain upstream-owned."},
			{"AI readiness and service generation lifecycle", gh + "floegence/redeven/HEAD/okf/architecture/ai-readiness-lifecycle.md", "Keep product surfaces available while AI startup, retry, generation draining, and typed unavailability remain process-local."},
			{"Runtime startup presentation", gh + "floegence/redeven/HEAD/okf/architecture/runtime-startup-presentation.md", "Structured startup events, renderer modes, and Desktop readiness reports."},
		},
	},
	"4i7__LLM-News-Memo/okf/index.md": {
		name:    "LLM News Memo OKF Bundle",
		tagline: "Agent-readable editing contract for the LLM News shared ledger and explicitly separated curated reports.",
		version: "0.2", typ: "Knowledge Bundle", concepts: 11,
		first: []Concept{
			{"Shared Ledger Concept", gh + "4i7/LLM-News-Memo/HEAD/okf/concepts/llm-news-shared-ledger.md", ""},
			{"Scheduled Run Writeback Playbook", gh + "4i7/LLM-News-Memo/HEAD/okf/playbooks/scheduled-run-writeback.md", ""},
			{"Ledger Editing Playbook", gh + "4i7/LLM-News-Memo/HEAD/okf/playbooks/editing-ledger.md", ""},
		},
	},
	"4rays__icli/okf/index.md": {
		name:    "iCLI",
		version: "0.2", concepts: 5,
		first: []Concept{
			{"iCLI", gh + "4rays/icli/HEAD/okf/product/icli.md", "macOS CLI and companion app for Reminders and Calendar"},
			{"Runtime", gh + "4rays/icli/HEAD/okf/architecture/index.md", "process split, IPC, and app discovery"},
			{"Domain models", gh + "4rays/icli/HEAD/okf/models/index.md", "reminder, calendar, and authorization types exchanged over IPC"},
		},
	},
	"DreamLab-AI__knowledgeGraph/okf/index.md": {
		name:    "NarrativeGoldmine Knowledge Bundle",
		version: "0.2", typ: "Index", concepts: 26,
		first: []Concept{
			{"1Hive", gh + "DreamLab-AI/knowledgeGraph/HEAD/okf/concepts/1-hive.md", "urn:ngm:class:1-hive"},
			{"1inch", gh + "DreamLab-AI/knowledgeGraph/HEAD/okf/concepts/1-inch.md", "urn:ngm:class:1-inch"},
			{"2D LiDAR", gh + "DreamLab-AI/knowledgeGraph/HEAD/okf/concepts/2-d-li-dar.md", "urn:ngm:class:2-d-li-dar"},
		},
	},
	"franklinbaldo__leizilla/docs/okf/index.md": {
		name:    "Leizilla Knowledge Bundle",
		tagline: "Conhecimento operacional do pipeline Leizilla — regras, convenções e contratos entre módulos.",
		version: "0.1", typ: "Visao Geral", concepts: 19,
		first: []Concept{
			{"Visão geral do pipeline", gh + "franklinbaldo/leizilla/HEAD/docs/okf/pipeline/overview.md", "6 etapas, entradas e saídas"},
			{"Discover", gh + "franklinbaldo/leizilla/HEAD/docs/okf/pipeline/discover.md", "estratégias de descoberta de URLs"},
			{"Scrape", gh + "franklinbaldo/leizilla/HEAD/docs/okf/pipeline/scrape.md", "download + upload raw para o IA"},
		},
	},
	"hikmaai-io__fucina/docs/okf/index.md": {
		name:    "Fucina knowledge bundle",
		version: "0.2", concepts: 6,
		first: []Concept{
			{"System overview", gh + "hikmaai-io/fucina/HEAD/docs/okf/overview.md", "Purpose, scope, platform, and high-level maturity."},
			{"Roadmap", gh + "hikmaai-io/fucina/HEAD/docs/okf/roadmap.md", "Evidence-ranked implementation priorities."},
			{"Architecture", gh + "hikmaai-io/fucina/HEAD/docs/okf/architecture/index.md", "CUDA runtime and serving-system design."},
		},
	},
	"gaia-research__gaia-skill-tree/docs/okf/index.md": {
		name:    "Gaia Skill Tree OKF Bundle",
		version: "0.1", concepts: 230,
		first: []Concept{
			{"Founder Mode", gh + "gaia-research/gaia-skill-tree/HEAD/docs/okf/skills/ultimate/founder-mode-orchestration.md", "Garry Tan's complete autonomous agent discipline suite spanning 19 named skills: browser QA, security auditing, design system creation, HTML generation, plan reviews (CEO/eng/design/DX), code review, root-cause debugging, E2E testing, ship/deploy automation, post-deploy canary monitoring, documentation, and founder-mode orchestration."},
			{"Ruflo", gh + "gaia-research/gaia-skill-tree/HEAD/docs/okf/skills/ultimate/multi-topology-orchestration.md", "The complete Ruflo AI orchestration platform: multi-topology swarm deployment, cloud platform management, GitHub automation, hive-mind consensus, reasoning memory bank, and full v3 architecture modernization."},
			{"Superpowers", gh + "gaia-research/gaia-skill-tree/HEAD/docs/okf/skills/ultimate/superpowers.md", "A complete software development methodology for coding agents: combines brainstorming, planning, parallel execution, systematic debugging, code review loops, and branch discipline into a unified agentic workflow."},
		},
	},
	"123wowow123__chronopin/docs/okf/index.md": {
		name:    "Start here",
		version: "0.2", concepts: 5,
		first: []Concept{
			{"README", gh + "123wowow123/chronopin/HEAD/docs/okf/README.md", "What the link wikis are, how they rebuild a pin's summary, and the commands to run"},
			{"Pipeline", gh + "123wowow123/chronopin/HEAD/docs/okf/pipeline/index.md", "The steps from a link on a pin to its wiki and the pin's summary"},
			{"Playbooks", gh + "123wowow123/chronopin/HEAD/docs/okf/playbooks/index.md", "Catching up, retrying failures, and exporting a bundle"},
		},
	},
	"awesome-flexloop__awesome-okf/bundles/ai-agent/ai-agent-fundamentals/index.md": {
		name:    "AI Agent 框架核心架构知识库",
		version: "0.2", concepts: 15,
		first: []Concept{
			{"AI Agent 框架导论", gh + "awesome-flexloop/awesome-okf/HEAD/bundles/ai-agent/ai-agent-fundamentals/concepts/00-introduction.md", "什么是AI Agent框架、核心子系统、12个项目全景、学习路径与前置知识"},
			{"Agent 核心循环", gh + "awesome-flexloop/awesome-okf/HEAD/bundles/ai-agent/ai-agent-fundamentals/concepts/01-agent-loop.md", "think-act-observe循环的工程实现、三种执行模式（并发/顺序/分段）、状态机设计、waterfall事件链、运行时委托"},
			{"工具系统", gh + "awesome-flexloop/awesome-okf/HEAD/bundles/ai-agent/ai-agent-fundamentals/concepts/02-tool-system.md", "工具注册、Function Calling、授权门控、ToolRegistry单例、工具集DAG组合、Capability Seam三角色模式"},
		},
	},
	"awesome-flexloop__awesome-okf/bundles/agnes-ai/index.md": {
		name:    "🤖 AgnesAI 大模型生态",
		tagline: "AgnesAI全模态AI平台OKF知识束索引——多模态大模型API、Agent框架、垂直研究项目",
		version: "0.2", typ: "group-index", concepts: 2,
		first: []Concept{
			{"agnes-ai-models", gh + "awesome-flexloop/awesome-okf/HEAD/bundles/agnes-ai/agnes-ai-models/index.md", "✅ stable · AgnesAI统一API网关教程——OpenAI兼容接口、对话/图像/视频生成、工具调用、速率限制、错误处理、生产最佳实践。共17个文档（8概念+5示例+2信源+索引）"},
			{"gode-agents", gh + "awesome-flexloop/awesome-okf/HEAD/bundles/agnes-ai/gode-agents/index.md", "✅ stable · GodeAgents (codified-smolagents v1.14.0) 编码式多智能体推理框架教程——双智能体范式（ToolCallingAgent/CodeAgent）、工具系统、8种模型后端、AST安全Python执行器、多智能体协作。共35个文档（15概念+7示例+7信源+4索引+facts/insights）"},
		},
	},
	"awesome-flexloop__awesome-okf/bundles/agnes-ai/agnes-ai-models/index.md": {
		name:    "AgnesAI 模型API网关",
		tagline: "AgnesAI多模态大模型API网关系统化中文教程——OpenAI兼容接口、对话/图像/视频生成、工具调用、生产环境最佳实践",
		version: "0.2", typ: "bundle", concepts: 15,
		first: []Concept{
			{"Agnes AI 简介", gh + "awesome-flexloop/awesome-okf/HEAD/bundles/agnes-ai/agnes-ai-models/concepts/00-introduction.md", "平台定位、模型家族概览、核心能力、区域站点、版本说明。"},
			{"5分钟快速开始", gh + "awesome-flexloop/awesome-okf/HEAD/bundles/agnes-ai/agnes-ai-models/concepts/01-getting-started.md", "环境准备、依赖安装、第一个API调用（Python + curl双版本）、模型选择建议。"},
			{"API认证与安全", gh + "awesome-flexloop/awesome-okf/HEAD/bundles/agnes-ai/agnes-ai-models/concepts/02-api-authentication.md", "Bearer Token认证机制、API密钥管理最佳实践、安全红线、401错误排查。"},
		},
	},
	"Red-Panda-Dev__tokenbel-wiki/okf/index.md": {
		name:    "Knowledge Bundle: TokenBel Wiki",
		version: "0.1", concepts: 8,
		first: []Concept{
			{"Architecture", gh + "Red-Panda-Dev/tokenbel-wiki/HEAD/okf/architecture/index.md", "System layers, dependency graph, and architectural invariants"},
			{"Content Layer", gh + "Red-Panda-Dev/tokenbel-wiki/HEAD/okf/content-layer/index.md", "Markdown content organization, front matter contracts, and section structure"},
			{"Presentation Layer", gh + "Red-Panda-Dev/tokenbel-wiki/HEAD/okf/presentation-layer/index.md", "Hugo templates, partials, and Tailwind CSS pipeline"},
		},
	},
	"StephenAbbott__opencheck/okf/index.md": {
		name:    "OpenCheck",
		version: "0.1", concepts: 7,
		first: []Concept{
			{"Project overview", gh + "StephenAbbott/opencheck/HEAD/okf/overview.md", "What OpenCheck is: an open beneficial-ownership and corporate-data aggregator that queries ~30 sources and synthesises Beneficial Ownership Data Standard (BODS) v0.4 output."},
			{"Architecture", gh + "StephenAbbott/opencheck/HEAD/okf/architecture.md", "The lookup pipeline, source adapters, BODS mapper, reconciler, risk engine, and React frontend."},
			{"Glossary", gh + "StephenAbbott/opencheck/HEAD/okf/glossary.md", "Beneficial-ownership terminology: BO, UBO, PSC, RLE, LEI, nominee."},
		},
	},
	"AndreiDrang__python-rucaptcha/okf/index.md": {
		name:    "Python-rucaptcha Knowledge Bundle",
		version: "0.1", concepts: 8,
		first: []Concept{
			{"System overview", gh + "AndreiDrang/python-rucaptcha/HEAD/okf/system-overview.md", "Domain map and architectural boundaries."},
			{"Standard solver adapters", gh + "AndreiDrang/python-rucaptcha/HEAD/okf/standard-solver-adapters.md", "How CAPTCHA-specific clients fit the shared engine."},
			{"Request lifecycle", gh + "AndreiDrang/python-rucaptcha/HEAD/okf/request-lifecycle.md", "Submission, polling, retries, and normalized results."},
		},
	},
	"Quitetall__tritium/okf/index.md": {
		name:    "Tritium",
		tagline: "Foundational ternary-model inference and training library — OKF knowledge bundle.",
		version: "0.1", typ: "Knowledge Bundle", concepts: 3,
		first: []Concept{
			{"Architecture", gh + "Quitetall/tritium/HEAD/okf/architecture/index.md", "hexagonal layering and the crate graph."},
			{"Concepts", gh + "Quitetall/tritium/HEAD/okf/concepts/index.md", "ternary math, packing formats, SALT quantization, the reference contract."},
			{"Crates", gh + "Quitetall/tritium/HEAD/okf/crates/index.md", "per-crate knowledge."},
		},
	},
	"SatohaCC__PharmacyDomain/okf/index.md": {
		name:    "PharmacyDomain Knowledge Base",
		tagline: "PharmacyDomain プロジェクトの設計ガイドライン、実装構成、現在の設計判断をまとめたナレッジベース",
		version: "0.2", typ: "Index", concepts: 4,
		first: []Concept{
			{"Domain層の実装ガイドライン", gh + "SatohaCC/PharmacyDomain/HEAD/okf/ddd/domain.md", "Domain Primitive、Value Object、Entity、Aggregate Root、Domain Service、Repository、各コンテキスト"},
			{"Application層の実装ガイドライン", gh + "SatohaCC/PharmacyDomain/HEAD/okf/ddd/application.md", "UseCase、Command / Response DTO、DI、例外、ユースケースの処理フロー、テスト方針"},
			{"テスト層の実装ガイドライン", gh + "SatohaCC/PharmacyDomain/HEAD/okf/testing.md", "AAAパターン、Domain / Applicationテスト、Fake Repository、例外、非同期テスト"},
		},
	},
	"chris-page-gov__okf-LandRegistry/bundle/index.md": {
		name:    "HM Land Registry public-estate OKF",
		version: "0.2", concepts: 11,
		first: []Concept{
			{"Scope and authority", gh + "chris-page-gov/okf-LandRegistry/HEAD/bundle/concepts/scope-and-authority.md", ""},
			{"Sources and provenance", gh + "chris-page-gov/okf-LandRegistry/HEAD/bundle/concepts/sources-and-provenance.md", ""},
			{"Rights, access and privacy", gh + "chris-page-gov/okf-LandRegistry/HEAD/bundle/concepts/rights-access-privacy.md", ""},
		},
	},
	"chris-page-gov__okf-uk-legislation/bundle/index.md": {
		name:    "Scope",
		version: "0.2", concepts: 4,
		first: []Concept{
			{"Ontology and normalized vocabulary", gh + "chris-page-gov/okf-uk-legislation/HEAD/bundle/ontology/index.md", ""},
			{"APIs and access methods", gh + "chris-page-gov/okf-uk-legislation/HEAD/bundle/access/index.md", ""},
			{"Coverage, provenance and limitations", gh + "chris-page-gov/okf-uk-legislation/HEAD/bundle/methodology/index.md", ""},
		},
	},
	"secondhomelab__secondhome-okf/bundle/index.md": {
		name:    "Venue",
		version: "0.1", concepts: 3,
		first: []Concept{
			{"About Second Home", gh + "secondhomelab/secondhome-okf/HEAD/bundle/about.md", "Cafe by day, bar by evening, and event space on select days, near Fushimi Station, Nagoya."},
			{"Cafe", gh + "secondhomelab/secondhome-okf/HEAD/bundle/cafe/index.md", "Second Home's daytime cafe menu."},
			{"Events", gh + "secondhomelab/secondhome-okf/HEAD/bundle/events/index.md", "Recurring happenings at the space."},
		},
	},
	"FastEndpoints__FastEndpoints/.okf/index.md": {
		name:    "OKF Knowledge Set",
		version: "0.1", concepts: 8,
		first: []Concept{
			{"Project Overview", gh + "FastEndpoints/FastEndpoints/HEAD/.okf/project-overview.md", "purpose, packages, status"},
			{"Architecture", gh + "FastEndpoints/FastEndpoints/HEAD/.okf/architecture.md", "REPR model, package graph, invariants"},
			{"Code Map", gh + "FastEndpoints/FastEndpoints/HEAD/.okf/code-map.md", "directories and where to edit"},
		},
	},
}
