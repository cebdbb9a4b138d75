package wire

// Partnership vocabulary of the full variant (contract 4.6), shared by
// GET /api/partners (its modalidades and placements) and POST /api/contact
// (its tipo and espaco checks), so an id is defined once.

// PartnershipKinds are the ids of the kinds of partnership (modalidades),
// in the order shown: the values POST /api/contact accepts in tipo.
var PartnershipKinds = []string{"patrocinio", "parceria", "anuncio"}

// PlacementIDs are the ids of the placements on offer, in the order shown:
// the values POST /api/contact accepts in espaco. The operator's offer file
// (PARTNERS_FILE, pkg/partners) must describe exactly these, each once, so
// GET /api/partners lists the ids contact accepts; the OpenAPI document
// publishes them as an enum.
var PlacementIDs = []string{"pagina_inicial", "topo_da_busca", "lateral_da_busca", "cartao_do_bundle", "llms_txt", "mcp_instructions"}

// MaxProposalPlacements is how many placements one proposal may name in
// espaco (contract 8).
const MaxProposalPlacements = 6
