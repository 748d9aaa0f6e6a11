#pragma once

#include <QCoreApplication>
#include <QImage>
#include <QList>
#include <QString>

#include <optional>

namespace Eddy {

// A picture a tool returned as MCP image content (base64 data with a mimeType), decoded, with
// the colour scale the server states for it in the block's _meta
// ({"eddy/colourScale": {"quantity": "|u|/U_lid", "min": 0, "max": 1}}). A block that does not
// decode keeps its error in words instead of an image. Plain value; any thread.
struct FieldPicture
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::FieldPicture)

public:
    struct Scale
    {
        QString quantity;
        double min = 0;
        double max = 0;
        bool operator==(const Scale &o) const { return quantity == o.quantity && min == o.min && max == o.max; }
    };

    QImage image; // null when it did not decode (see error)
    QString mimeType;
    QString error;
    QString caption; // what the picture shows, in the server's words (_meta "eddy/caption")
    std::optional<Scale> scale;

    // Every image block of a CallToolResult (JSON text), in order.
    static QList<FieldPicture> fromResult(const QString &resultJson);
    // The one scale every picture states, when they all state the same one.
    static std::optional<Scale> commonScale(const QList<FieldPicture> &pictures);
    // "|u|/U_lid from 0 to 1"
    static QString scaleText(const Scale &scale);
};

} // namespace Eddy
