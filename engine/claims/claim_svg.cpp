#include "engine/claims/claim_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "engine/claims/claims_report.h"

namespace octo {

namespace {

constexpr double kWidth = 800, kHeight = 190;
constexpr double kLeft = 150, kRight = 770; // the axis, in user units
constexpr double kMeasuredY = 82, kControlY = 114, kAxisY = 142;

std::string xml_escape(const std::string& s) {
    std::string out;
    for (const char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out.push_back(c);
        }
    }
    return out;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

// A step of 1, 2 or 5 × 10^k that cuts `span` into about `parts`.
double nice_step(double span, int parts) {
    const double raw = span / parts;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        if (raw <= m * p) return m * p;
    }
    return 10.0 * p;
}

} // namespace

std::string verdict_svg(const Claim& c, const ClaimResult& r, bool zh) {
    if (!r.estimate) return {};
    const Estimate& e = *r.estimate;
    const std::optional<Estimate> control = r.control ? r.control->estimate : std::nullopt;
    const bool has_figure = c.article_figure.is_number();
    const double figure = has_figure ? c.article_figure.get<double>() : 0.0;

    std::vector<double> span = {e.ci95.lo, e.ci95.hi, e.value, c.threshold};
    if (control) span.insert(span.end(), {control->ci95.lo, control->ci95.hi});
    if (has_figure) span.push_back(figure);
    double lo = *std::min_element(span.begin(), span.end()), hi = *std::max_element(span.begin(), span.end());
    if (!(hi > lo)) {
        lo -= 0.5;
        hi += 0.5;
    }
    const double pad = 0.08 * (hi - lo);
    lo -= pad;
    hi += pad;
    const auto x = [&](double v) { return kLeft + (v - lo) / (hi - lo) * (kRight - kLeft); };

    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight << "\" viewBox=\"0 0 " << kWidth
      << ' ' << kHeight << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s << "<text x=\"10\" y=\"20\" font-size=\"13\" font-weight=\"bold\">" << xml_escape(c.id) << "</text>\n";
    // The verdict line, broken at its clauses into lines of about 110 characters.
    {
        const std::string line = verdict_line(c, r, zh);
        std::vector<std::string> lines(1);
        size_t from = 0;
        while (from < line.size()) {
            size_t cut = line.find("; ", from);
            const size_t to = cut == std::string::npos ? line.size() : cut + 2;
            const std::string clause = line.substr(from, to - from);
            if (!lines.back().empty() && lines.back().size() + clause.size() > 110) lines.emplace_back();
            lines.back() += clause;
            from = to;
        }
        for (size_t i = 0; i < lines.size() && i < 2; ++i) {
            s << "<text x=\"10\" y=\"" << 38 + 16 * i << "\" fill=\"#333\">" << xml_escape(lines[i]) << "</text>\n";
        }
    }

    // The axis with ticks in the claim's unit.
    s << "<line x1=\"" << kLeft << "\" y1=\"" << kAxisY << "\" x2=\"" << kRight << "\" y2=\"" << kAxisY << "\" stroke=\"#555\"/>\n";
    const double step = nice_step(hi - lo, 8);
    for (double t = std::ceil(lo / step) * step; t <= hi + 1e-12; t += step) {
        const double v = std::abs(t) < step * 1e-9 ? 0.0 : t;
        s << "<line x1=\"" << num(x(v)) << "\" y1=\"" << kAxisY << "\" x2=\"" << num(x(v)) << "\" y2=\"" << kAxisY + 5
          << "\" stroke=\"#555\"/><text x=\"" << num(x(v)) << "\" y=\"" << kAxisY + 18 << "\" text-anchor=\"middle\" fill=\"#333\">"
          << xml_escape(format_claim_value(c.unit, v)) << "</text>\n";
    }

    // The threshold "holds" must clear, dashed across both rows.
    s << "<line id=\"threshold\" x1=\"" << num(x(c.threshold)) << "\" y1=\"" << kMeasuredY - 16 << "\" x2=\"" << num(x(c.threshold)) << "\" y2=\"" << kAxisY
      << "\" stroke=\"#D55E00\" stroke-width=\"1.5\" stroke-dasharray=\"5,3\"/>\n";
    // Labels stand on the side of their mark that has room.
    const auto side = [&](double px) { return px > (kLeft + kRight) / 2 ? "end" : "start"; };
    const auto beside = [&](double px) { return px > (kLeft + kRight) / 2 ? px - 6 : px + 6; };
    s << "<text x=\"" << num(beside(x(c.threshold))) << "\" y=\"" << kAxisY - 4 << "\" text-anchor=\"" << side(x(c.threshold))
      << "\" fill=\"#D55E00\" font-size=\"11\">" << (zh ? "阈值 " : "threshold ") << xml_escape(format_claim_value(c.unit, c.threshold))
      << "</text>\n";

    // Measured, and the control, each an interval with its point.
    const auto row = [&](const char* id, const Estimate& est, double y, const char* colour, const std::string& label) {
        s << "<text x=\"10\" y=\"" << y + 4 << "\" fill=\"" << colour << "\">" << xml_escape(label) << "</text>\n";
        s << "<line id=\"" << id << "-ci\" x1=\"" << num(x(est.ci95.lo)) << "\" y1=\"" << y << "\" x2=\"" << num(x(est.ci95.hi)) << "\" y2=\""
          << y << "\" stroke=\"" << colour << "\" stroke-width=\"5\" stroke-linecap=\"butt\"/>\n";
        s << "<circle id=\"" << id << "\" cx=\"" << num(x(est.value)) << "\" cy=\"" << y << "\" r=\"5\" fill=\"white\" stroke=\"" << colour
          << "\" stroke-width=\"2\"/>\n";
    };
    row("measured", e, kMeasuredY, "#0072B2", zh ? "测得（95% 区间）" : "measured (95 % CI)");
    if (control) row("control", *control, kControlY, "#777777", zh ? "打乱映射对照" : "shuffled-map control");

    // The article's figure about GPT-4, unverified.
    if (has_figure) {
        const double fx = x(figure);
        s << "<path id=\"article\" d=\"M " << num(fx) << ' ' << kMeasuredY - 13 << " l 6 6 l -6 6 l -6 -6 z\" fill=\"#009E73\"/>\n";
        s << "<text x=\"" << num(fx > (kLeft + kRight) / 2 ? fx - 9 : fx + 9) << "\" y=\"" << kMeasuredY - 4 << "\" text-anchor=\""
          << side(fx) << "\" fill=\"#009E73\" font-size=\"11\">"
          << (zh ? "文章（GPT-4，未验证）" : "article (GPT-4, unverified)") << "</text>\n";
    }
    s << "</svg>\n";
    return s.str();
}

} // namespace octo
