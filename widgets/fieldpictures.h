#pragma once

#include "models/fieldpicture.h"

#include <QWidget>

namespace Eddy {

// Field pictures of one or more cases side by side, each under its case's name, all drawn at one
// size, with the colour scale they share stated below (or a warning when they do not state one
// scale, or a picture does not decode). Painted; owns copies of the decoded images. GUI thread.
class FieldPictures final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FieldPictures)

public:
    struct CasePictures
    {
        QString label;  // "Case 2"; empty for a single task
        QString result; // the CallToolResult JSON text
    };

    explicit FieldPictures(QWidget *parent = nullptr);

    void setCases(const QList<CasePictures> &cases);
    // Decoded pictures shown (one per case and image block), and the line under them.
    int pictureCount() const;
    bool hasPictures() const { return pictureCount() > 0; }
    QString scaleNote() const { return m_note; }
    QList<FieldPicture> picturesOf(int caseIndex) const { return m_pictures.value(caseIndex); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QStringList m_labels;
    QList<QList<FieldPicture>> m_pictures;
    QString m_note;
    bool m_noteIsWarning = false;
};

} // namespace Eddy
