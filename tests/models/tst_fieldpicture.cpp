#include "models/fieldpicture.h"

#include <QBuffer>
#include <QTest>

using namespace Eddy;

// Pictures from MCP image content: decoded with their stated colour scale, or kept as an error
// in words when they do not decode.
class tst_FieldPicture : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodesWithItsScale();
    void badDataSaysWhatToDo();
    void commonScaleOnlyWhenAllAgree();
};

namespace {

QString resultWith(const QString &data, const QString &scale = {})
{
    return QStringLiteral(R"({"content":[{"type":"text","text":"t"},{"type":"image","mimeType":"image/png","data":"%1"%2}]})")
        .arg(data, scale.isEmpty() ? QString() : QStringLiteral(R"(,"_meta":{"eddy/colourScale":%1})").arg(scale));
}

QString pngBase64()
{
    QImage image(4, 4, QImage::Format_RGB32);
    image.fill(Qt::blue);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QString::fromLatin1(bytes.toBase64());
}

} // namespace

void tst_FieldPicture::decodesWithItsScale()
{
    const auto pictures = FieldPicture::fromResult(
        resultWith(pngBase64(), QStringLiteral(R"({"quantity":"|u|","min":0,"max":2})")));
    QCOMPARE(pictures.size(), 1);
    QCOMPARE(pictures.first().image.size(), QSize(4, 4));
    QVERIFY(pictures.first().error.isEmpty());
    QVERIFY(pictures.first().scale);
    QCOMPARE(pictures.first().scale->max, 2.0);
    QCOMPARE(FieldPicture::scaleText(*pictures.first().scale), QStringLiteral("|u| from 0 to 2"));
}

void tst_FieldPicture::badDataSaysWhatToDo()
{
    const auto broken = FieldPicture::fromResult(resultWith(QStringLiteral("bm90IGFuIGltYWdl")));
    QCOMPARE(broken.size(), 1);
    QVERIFY(broken.first().image.isNull());
    QVERIFY2(broken.first().error.contains(QStringLiteral("does not decode")), qPrintable(broken.first().error));
    QVERIFY(broken.first().error.contains(QStringLiteral("maintainer")));
    const auto garbage = FieldPicture::fromResult(resultWith(QStringLiteral("***")));
    QVERIFY(garbage.first().image.isNull());
    QVERIFY(!garbage.first().error.isEmpty());
    QVERIFY(FieldPicture::fromResult(QStringLiteral("not json")).isEmpty());
    QVERIFY(FieldPicture::fromResult(QStringLiteral(R"({"content":[{"type":"text","text":"x"}]})")).isEmpty());
}

void tst_FieldPicture::commonScaleOnlyWhenAllAgree()
{
    const QString png = pngBase64();
    const auto a = FieldPicture::fromResult(resultWith(png, QStringLiteral(R"({"quantity":"q","min":0,"max":1})")));
    const auto b = FieldPicture::fromResult(resultWith(png, QStringLiteral(R"({"quantity":"q","min":0,"max":1})")));
    const auto c = FieldPicture::fromResult(resultWith(png, QStringLiteral(R"({"quantity":"q","min":0,"max":3})")));
    const auto none = FieldPicture::fromResult(resultWith(png));
    QVERIFY(FieldPicture::commonScale(a + b));
    QVERIFY(!FieldPicture::commonScale(a + c));
    QVERIFY(!FieldPicture::commonScale(a + none));
}

QTEST_GUILESS_MAIN(tst_FieldPicture)
#include "tst_fieldpicture.moc"
