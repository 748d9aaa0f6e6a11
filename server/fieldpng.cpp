#include "server/fieldpng.h"

#include "server/base64.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <zlib.h>

namespace Eddy::Server {

namespace {

constexpr int kColours = 250;     // palette entries of the colour map
constexpr int kClear = kColours;  // transparent (the gap beside the bar)
constexpr int kMark = kColours + 1; // the cross: white

void put32(std::vector<std::uint8_t> &out, std::uint32_t v)
{
    for (int s = 24; s >= 0; s -= 8)
        out.push_back(std::uint8_t(v >> s));
}

void chunk(std::vector<std::uint8_t> &png, const char *type, const std::vector<std::uint8_t> &data)
{
    put32(png, std::uint32_t(data.size()));
    const std::size_t start = png.size();
    png.insert(png.end(), type, type + 4);
    png.insert(png.end(), data.begin(), data.end());
    put32(png, std::uint32_t(::crc32(0L, png.data() + start, uInt(png.size() - start))));
}

// The image rows deflated by zlib (a smooth field compresses to a few kilobytes, so every
// stored result stays small).
std::vector<std::uint8_t> deflated(const std::vector<std::uint8_t> &raw)
{
    uLongf size = compressBound(uLong(raw.size()));
    std::vector<std::uint8_t> z(size);
    if (compress2(z.data(), &size, raw.data(), uLong(raw.size()), Z_BEST_COMPRESSION) != Z_OK)
        return {};
    z.resize(size);
    return z;
}

// A viridis-like map: dark blue (low) through teal and green to yellow (high), readable on light
// and dark backgrounds, ordered in lightness.
std::array<std::uint8_t, 3> colour(double t)
{
    static constexpr double stops[][3] = {{68, 1, 84},    {72, 40, 120},  {62, 74, 137},
                                          {49, 104, 142}, {38, 130, 142}, {31, 158, 137},
                                          {53, 183, 121}, {110, 206, 88}, {181, 222, 43},
                                          {253, 231, 37}};
    constexpr int n = int(std::size(stops)) - 1;
    t = std::clamp(t, 0.0, 1.0) * n;
    const int i = std::min(int(t), n - 1);
    const double f = t - i;
    std::array<std::uint8_t, 3> c{};
    for (int k = 0; k < 3; ++k)
        c[std::size_t(k)] = std::uint8_t(std::lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k])));
    return c;
}

} // namespace

std::vector<std::uint8_t> fieldPng(const FieldImage &field, int side)
{
    const int gap = 8, bar = 14;
    const int width = side + gap + bar, height = side;
    const double span = field.max > field.min ? field.max - field.min : 1.0;
    const auto index = [&](double v) {
        const double t = std::clamp((v - field.min) / span, 0.0, 1.0);
        return std::uint8_t(std::lround(t * (kColours - 1)));
    };
    // Bilinear between the samples (cell centres), clamped at the walls.
    const int n = field.size;
    const auto at = [&](double x, double y) {
        if (n <= 0 || field.values.size() < std::size_t(n) * std::size_t(n))
            return field.min;
        const double fx = std::clamp(x * n - 0.5, 0.0, n - 1.0), fy = std::clamp(y * n - 0.5, 0.0, n - 1.0);
        const int i = std::min(int(fx), n - 2 < 0 ? 0 : n - 2), j = std::min(int(fy), n - 2 < 0 ? 0 : n - 2);
        const double u = n > 1 ? fx - i : 0, w = n > 1 ? fy - j : 0;
        const auto v = [&](int a, int b) { return field.values[std::size_t(std::min(b, n - 1)) * std::size_t(n) + std::size_t(std::min(a, n - 1))]; };
        return (1 - u) * (1 - w) * v(i, j) + u * (1 - w) * v(i + 1, j) + (1 - u) * w * v(i, j + 1) + u * w * v(i + 1, j + 1);
    };
    std::vector<std::uint8_t> raw;
    raw.reserve(std::size_t(height) * std::size_t(width + 1));
    const int markI = field.markX >= 0 ? int(field.markX * side) : -100;
    const int markJ = field.markY >= 0 ? int((1.0 - field.markY) * side) : -100;
    for (int row = 0; row < height; ++row) {
        raw.push_back(0); // filter: none
        const double y = 1.0 - (row + 0.5) / side; // the top row is the lid
        for (int col = 0; col < width; ++col) {
            std::uint8_t px = kClear;
            if (col < side) {
                const bool cross = (std::abs(col - markI) <= 4 && std::abs(row - markJ) <= 1)
                                   || (std::abs(row - markJ) <= 4 && std::abs(col - markI) <= 1);
                px = cross ? kMark : index(at((col + 0.5) / side, y));
            } else if (col >= side + gap) {
                px = std::uint8_t(std::lround((1.0 - (row + 0.5) / height) * (kColours - 1)));
            }
            raw.push_back(px);
        }
    }
    std::vector<std::uint8_t> png{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<std::uint8_t> ihdr;
    put32(ihdr, std::uint32_t(width));
    put32(ihdr, std::uint32_t(height));
    ihdr.insert(ihdr.end(), {8, 3, 0, 0, 0}); // 8-bit palette, deflate, adaptive filters, no interlace
    chunk(png, "IHDR", ihdr);
    std::vector<std::uint8_t> plte;
    for (int i = 0; i < kColours; ++i) {
        const auto c = colour(double(i) / (kColours - 1));
        plte.insert(plte.end(), c.begin(), c.end());
    }
    plte.insert(plte.end(), {0, 0, 0, 255, 255, 255});
    chunk(png, "PLTE", plte);
    std::vector<std::uint8_t> trns(kColours, 255);
    trns.push_back(0); // kClear
    chunk(png, "tRNS", trns);
    const std::vector<std::uint8_t> idat = deflated(raw);
    if (idat.empty())
        return {};
    chunk(png, "IDAT", idat);
    chunk(png, "IEND", {});
    return png;
}

std::string base64(const std::vector<std::uint8_t> &bytes)
{
    return encodeBase64(std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
}

} // namespace Eddy::Server
