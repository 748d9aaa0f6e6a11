#include "models/fieldpicture.h"

#include <QLocale>

#include <nlohmann/json.hpp>

namespace Eddy {

using json = nlohmann::json;

QList<FieldPicture> FieldPicture::fromResult(const QString &resultJson)
{
    QList<FieldPicture> out;
    const json result = json::parse(resultJson.toStdString(), nullptr, false);
    if (!result.is_object() || !result.contains("content") || !result["content"].is_array())
        return out;
    for (const json &block : result["content"]) {
        if (!block.is_object() || block.value("type", json()) != "image")
            continue;
        FieldPicture p;
        p.mimeType = QString::fromStdString(block.value("mimeType", std::string()));
        const json data = block.value("data", json());
        if (!data.is_string()) {
            p.error = tr("The server sent a picture without data. Ask its maintainer to send the "
                         "image as base64 in \"data\".");
            out << p;
            continue;
        }
        const QByteArray bytes = QByteArray::fromBase64(QByteArray::fromStdString(data.get<std::string>()),
                                                        QByteArray::AbortOnBase64DecodingErrors);
        if (bytes.isEmpty() || !p.image.loadFromData(bytes)) {
            p.image = QImage();
            p.error = tr("The picture (%1) does not decode as an image. The result's other values "
                         "are kept; ask the server's maintainer to check the picture's data.")
                          .arg(p.mimeType.isEmpty() ? tr("no type given") : p.mimeType);
        }
        const json meta = block.value("_meta", json::object());
        const json scale = meta.is_object() ? meta.value("eddy/colourScale", json()) : json();
        if (scale.is_object() && scale.value("min", json()).is_number() && scale.value("max", json()).is_number())
            p.scale = Scale{QString::fromStdString(scale.value("quantity", std::string())),
                            scale["min"].get<double>(), scale["max"].get<double>()};
        if (meta.is_object() && meta.value("eddy/caption", json()).is_string())
            p.caption = QString::fromStdString(meta["eddy/caption"].get<std::string>());
        out << p;
    }
    return out;
}

std::optional<FieldPicture::Scale> FieldPicture::commonScale(const QList<FieldPicture> &pictures)
{
    std::optional<Scale> common;
    for (const FieldPicture &p : pictures) {
        if (p.image.isNull())
            continue;
        if (!p.scale || (common && !(*common == *p.scale)))
            return std::nullopt;
        common = p.scale;
    }
    return common;
}

QString FieldPicture::scaleText(const Scale &scale)
{
    return tr("%1 from %2 to %3")
        .arg(scale.quantity.isEmpty() ? tr("the field") : scale.quantity,
             QLocale().toString(scale.min, 'g', 4), QLocale().toString(scale.max, 'g', 4));
}

} // namespace Eddy
