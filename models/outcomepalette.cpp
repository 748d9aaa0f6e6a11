#include "models/outcomepalette.h"

#include <QGuiApplication>
#include <QPalette>

namespace Eddy {

QColor OutcomePalette::color(Outcome outcome, bool dark)
{
    // Light-theme colours keep 4.5:1 against white; the dark ones against #1f2124.
    switch (outcome) {
    case Outcome::Working:
        return dark ? QColor(0x5c, 0xa4, 0xf0) : QColor(0x1f, 0x6f, 0xc5);
    case Outcome::NeedsInput:
        return dark ? QColor(0xc0, 0x8a, 0xf0) : QColor(0x8a, 0x3f, 0xc0);
    case Outcome::Converged:
    case Outcome::Completed:
        return dark ? QColor(0x4c, 0xc3, 0x6a) : QColor(0x25, 0x8a, 0x40);
    case Outcome::NotConverged:
        return dark ? QColor(0xf5, 0xa6, 0x23) : QColor(0xb8, 0x5c, 0x00);
    case Outcome::ToolError:
        return dark ? QColor(0xff, 0x6b, 0x81) : QColor(0xc0, 0x1c, 0x45);
    case Outcome::Failed:
        return dark ? QColor(0xff, 0x70, 0x5c) : QColor(0xc6, 0x28, 0x28);
    case Outcome::Cancelled:
        return dark ? QColor(0x9a, 0x9f, 0xa6) : QColor(0x6b, 0x6f, 0x75);
    case Outcome::Expired:
    case Outcome::Lost:
        return dark ? QColor(0xc4, 0x9a, 0x6c) : QColor(0x8a, 0x5a, 0x2b);
    }
    return {};
}

bool OutcomePalette::isDarkPalette()
{
    // qGuiApp is a plain cast: under a QCoreApplication (models in GUI-less tests) it is no GUI.
    if (!qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return false;
    const QPalette p = QGuiApplication::palette();
    return p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
}

QColor OutcomePalette::color(Outcome outcome)
{
    return color(outcome, isDarkPalette());
}

OutcomePalette::Marker OutcomePalette::marker(Outcome outcome)
{
    // Shapes as well as colours, so outcomes read without colour vision.
    switch (outcome) {
    case Outcome::NeedsInput:
        return Marker::Diamond;
    case Outcome::NotConverged:
        return Marker::Ring;
    case Outcome::ToolError:
    case Outcome::Failed:
        return Marker::Cross;
    case Outcome::Expired:
    case Outcome::Lost:
        return Marker::Square;
    default:
        return Marker::Dot;
    }
}

} // namespace Eddy
