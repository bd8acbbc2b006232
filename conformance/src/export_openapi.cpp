// SPDX-License-Identifier: MIT
// The OpenAPI 3.2 export: the event schemas as components, and per dialect
// the text/event-stream item schema (event, data, id, retry; `data` holds the
// JSON, described with contentMediaType and contentSchema) and an example path.
#include "export_parts.hpp"

namespace ssec::conformance {
namespace {

std::string regex_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::string_view("\\^$.|?*+()[]{}/").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// The item schema of one dialect: the SSE fields, and one branch per frame shape.
nlohmann::ordered_json item_schema(const sse::dialect::dialect_spec& d, const std::string& payload_ref) {
  using sse::dialect::shape;
  nlohmann::ordered_json item{
      {"title", d.name + " frame"},
      {"description", "One server-sent event of the " + d.name + " stream: the fields a parser dispatches."},
      {"type", "object"},
      {"properties",
       {{"event", {{"type", "string"}, {"description", "The event type; `message` when the frame has no event line."}}},
        {"data", {{"type", "string"}, {"description", "The frame's data lines, joined with LF."}}},
        {"id", {{"type", "string"}, {"description", "The last event id the frame set, if any."}}},
        {"retry", {{"type", "integer"}, {"minimum", 0}, {"description", "Reconnection time in milliseconds."}}}}},
      {"required", {"data"}}};
  const nlohmann::ordered_json structured{
      {"title", "structured"},
      {"description", "A JSON object with a string `type`: the " + d.name + " event."},
      {"properties",
       {{"data",
         {{"type", "string"}, {"contentMediaType", "application/json"}, {"contentSchema", {{"$ref", payload_ref}}}}}}},
      {"x-sse-conform-frame-shape", "structured"}};
  nlohmann::ordered_json shapes = nlohmann::ordered_json::array();
  for (const auto& s : d.shapes) {
    if (s.kind == shape::structured) {
      shapes.push_back(structured);
    } else if (s.kind == shape::error) {
      shapes.push_back({{"title", "error"},
                        {"description", s.detection + " " + s.handling},
                        {"properties", {{"data", {{"type", "string"}, {"pattern", "^" + regex_escape(s.prefix)}}}}},
                        {"x-sse-conform-frame-shape", "error"},
                        {"x-sse-conform-error-prefix", s.prefix}});
    } else {
      shapes.push_back({{"title", "plain_text"},
                        {"description", s.detection + " " + s.handling},
                        {"properties", {{"data", {{"type", "string"}, {"contentMediaType", "text/plain"}}}}},
                        {"x-sse-conform-frame-shape", "plain_text"}});
    }
  }
  if (!d.error_wire_event.empty()) {
    shapes.push_back({{"title", "error event"},
                      {"description",
                       "An error frame marked by its SSE event type; the consumer re-applies the "
                       "error prefix before decoding."},
                      {"properties", {{"event", {{"type", "string"}, {"const", d.error_wire_event}}}}},
                      {"x-sse-conform-frame-shape", "error"}});
  }
  if (shapes.size() <= 1) {
    item["properties"]["data"]["contentMediaType"] = "application/json";
    item["properties"]["data"]["contentSchema"] = {{"$ref", payload_ref}};
  } else {
    item["anyOf"] = std::move(shapes);
    item["x-sse-conform-shapes-note"] =
        "The shapes overlap (plain text is anything that is not the others), so they are an anyOf; a consumer "
        "tells them apart by the order the catalog gives: error prefix, then structured JSON, then plain text.";
  }
  return item;
}

}  // namespace

nlohmann::ordered_json openapi_document(const sse::dialect::catalog& cat,
                                        std::span<const sse::dialect::dialect_spec* const> dialects,
                                        std::vector<export_gap>& gaps) {
  std::string versions, names;
  for (const auto& f : cat.files()) {
    versions += (versions.empty() ? "" : ", ") + f.name + " " + f.catalog_version;
  }
  for (const auto* d : dialects) names += (names.empty() ? "" : ", ") + d->name;
  nlohmann::ordered_json schemas = nlohmann::ordered_json::object();
  nlohmann::ordered_json paths = nlohmann::ordered_json::object();
  for (const auto* d : dialects) {
    const auto defs = detail::event_schemas(cat, *d, export_format::openapi, "#/components/schemas/");
    for (const auto& [k, v] : defs.items()) schemas[k] = v;
    const std::string item = detail::pascal(d->name) + "SseItem";
    schemas[item] = item_schema(*d, "#/components/schemas/" + detail::union_name(*d));
    paths["/example/" + d->name + "/stream"] = {
        {"get",
         {{"operationId", "stream" + detail::pascal(d->name)},
          {"summary", "Example endpoint streaming the " + d->name + " dialect"},
          {"description", d->purpose},
          {"responses",
           {{"200",
             {{"description", "The " + d->name + " event stream."},
              {"content", {{"text/event-stream", {{"itemSchema", {{"$ref", "#/components/schemas/" + item}}}}}}}}}}}}}};
    detail::collect_gaps(*d, export_format::openapi, gaps);
  }
  return {{"openapi", "3.2.0"},
          {"info",
           {{"title", "sse-conform catalogs: " + names},
            {"version", versions},
            {"description", "Generated by `sse-conform export --to openapi` from the catalogs (" + versions +
                                "). The paths are examples: put the item schemas under your own operations."}}},
          {"paths", std::move(paths)},
          {"components", {{"schemas", std::move(schemas)}}}};
}

}  // namespace ssec::conformance
