// JSON Schema to GBNF (gbnf_grammar.h): the grammar of the JSON documents a schema accepts, for
// constrained decoding (generate --json-schema, the server's response_format json_schema).
//
// The supported subset, each keyword enforced by the grammar itself:
//   type            object, array, string, number, integer, boolean, null, or a list of them
//   object          properties (written in the order declared), required, additionalProperties
//                   (absent or false: no other keys, as OpenAI's strict mode; true or a schema:
//                   other keys after the declared ones)
//   array           items, prefixItems, minItems, maxItems
//   string          minLength, maxLength (characters), pattern (a regular expression: literals,
//                   ., [classes], \d \w \s, groups, |, * + ? {m,n}; anchored by ^ and $, else it
//                   may match anywhere, as the JSON Schema specification says), format date,
//                   time, date-time, uuid
//   integer         minimum, maximum, exclusiveMinimum, exclusiveMaximum
//   enum, const     any JSON values
//   anyOf, oneOf    alternatives (oneOf as anyOf: the grammar cannot tell "exactly one")
//   allOf           of a single schema
//   $ref            "#", "#/$defs/NAME" and "#/definitions/NAME" (recursion allowed)
//   {} or true      any JSON value
// Annotations (title, description, default, examples, $schema, $id, $comment, deprecated,
// readOnly, writeOnly) are ignored. Any other keyword — one that would constrain the document in a
// way this grammar cannot (not, if, patternProperties, uniqueItems, multipleOf, minimum on a
// number, …) — is refused with its JSON pointer, rather than silently producing documents that
// break it.
#pragma once

#include <string>
#include <string_view>

#include "engine/core/result.h"

namespace octo {

// GBNF with a `root` rule for the documents `schema` (JSON text) accepts, with optional
// whitespace between tokens, written between the texts `before` and `after` (a tool call's
// markers). InvalidArgument naming the JSON pointer of the first keyword or value it cannot
// honour, or the parse error of malformed JSON.
Result<std::string> json_schema_to_gbnf(std::string_view schema, std::string_view before = {}, std::string_view after = {});

// The schema of "any JSON object" (response_format json_object), and its GBNF.
inline constexpr std::string_view kJsonObjectSchema = R"({"type": "object", "additionalProperties": true})";
std::string json_object_gbnf();

} // namespace octo
