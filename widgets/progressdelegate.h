#pragma once

#include <QCache>
#include <QFont>
#include <QStyledItemDelegate>

#include <functional>

namespace Eddy {

// Pictures of painted cells, kept by what a cell shows: its text, size, state (selected,
// alternate, focus, hover), colours and what its delegate draws besides (a bar's length, an
// outcome's marker). A repaint of cells already seen (the second paint of an interaction, a
// sort or filter that brings rows back, hover and selection) copies a picture instead of
// laying out and shaping text and drawing progress bars again; cells that show the same (a
// "Completed" status, a full bar, a Reynolds number) share one. The pictures are painted by
// the delegate itself over the view's background, so a copy is the same pixels; a change of
// font, palette, style or device pixel ratio drops them all. Painters that a picture would
// not match exactly (a scale other than the device's, a fractional offset, a printer) get
// the cell painted directly. GUI thread.
class CellPictureCache
{
public:
    struct Key
    {
        int kind = 0;  // what draws the cell (the delegate's own paths)
        int extra = 0; // that path's own input (a bar's length in permille)
        QString text;
        QSize size;
        uint state = 0;
        uint features = 0;
        int alignment = 0;
        int elide = 0;
        int direction = 0;
        QRgb foreground = 0;
        QRgb background = 0; // 0: none
        bool operator==(const Key &) const = default;
    };

    explicit CellPictureCache(int maxKiB);
    // Paints the cell (option.rect) with draw, or copies its picture.
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const Key &key,
               const std::function<void(QPainter *)> &draw);
    // Off: every cell painted directly (tests compare the two).
    void setEnabled(bool on);
    bool isEnabled() const { return m_enabled; }
    int size() const { return int(m_pictures.size()); }

private:
    QCache<Key, QPixmap> m_pictures;
    QFont m_font;
    qint64 m_palette = 0;
    const void *m_style = nullptr;
    qreal m_dpr = 0;
    bool m_enabled = true;
};

size_t qHash(const CellPictureCache::Key &key, size_t seed = 0);

// Paints the task table's progress column as a native progress bar (QStyleOptionProgressBar,
// never a real widget in paint()) and the status column's colour as a round dot. GUI thread.
class ProgressDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProgressDelegate)

public:
    explicit ProgressDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    // Where the status text starts in its cell: after the outcome's marker.
    static int statusIndent(const QFontMetrics &metrics);
    CellPictureCache &pictures() const { return m_pictures; }

private:
    void paintCell(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const;

    mutable CellPictureCache m_pictures{16 * 1024};
};

// Elides its column's text on the left: a case label keeps its case number ("…studie 1 · Fall 6")
// in a narrow column. For the Case columns of the task table and the inbox.
class ElideLeftDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ElideLeftDelegate)

public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    CellPictureCache &pictures() const { return m_pictures; }

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = Qt::ElideLeft;
    }

private:
    mutable CellPictureCache m_pictures{4 * 1024};
};

} // namespace Eddy
