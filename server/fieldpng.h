#pragma once

// A small PNG of a scalar field for a tool result's image content: an 8-bit palette image (a
// perceptually ordered dark-blue-to-yellow colour map, fixed range min..max) beside a colour
// bar, deflated by zlib. No Qt.

#include <cstdint>
#include <string>
#include <vector>

namespace Eddy::Server {

struct FieldImage
{
    int size = 0;              // values per side
    std::vector<double> values; // size x size, row-major from the bottom row up
    double min = 0.0;          // the colour map's ends: values outside are clamped
    double max = 1.0;
    double markX = -1, markY = -1; // a cross at (x, y) in 0..1 (the vortex centre), or none
};

// The PNG bytes: a side x side picture of the field plus a colour bar (max at the top); empty
// when zlib fails (no memory).
std::vector<std::uint8_t> fieldPng(const FieldImage &field, int side = 160);
// Standard base64 (for MCP image content).
std::string base64(const std::vector<std::uint8_t> &bytes);

} // namespace Eddy::Server
