#pragma once

#include <string>
#include <string_view>

namespace Eddy::Server {

// Base64 in the two alphabets of RFC 4648: the standard one with its padding (section 4: MCP
// image content, SEP-2243 header values) and the URL one without padding (section 5: JWT parts
// as RFC 7515 writes them, the 2025-11-25 tasks/list cursor). Decoders refuse what is not
// exactly their form.
std::string encodeBase64(std::string_view bytes);
// A length that is a multiple of 4, '=' only at the end, and nothing outside the alphabet.
bool decodeBase64(std::string_view in, std::string &out);
std::string encodeBase64Url(std::string_view bytes);
// No padding, no character of the standard alphabet, no lone sixth of a byte.
bool decodeBase64Url(std::string_view in, std::string &out);

} // namespace Eddy::Server
