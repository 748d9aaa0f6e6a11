#pragma once

// Private to desktopservice.cpp: the two D-Bus interfaces of the window's object.

#include "widgets/desktopservice.h"

#include <QDBusAbstractAdaptor>
#include <QDBusVariant>
#include <QVariantList>
#include <QVariantMap>

namespace Eddy {

// org.freedesktop.Application (Desktop Entry Specification, "D-Bus Activation").
class ApplicationAdaptor final : public QDBusAbstractAdaptor
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Application")

public:
    explicit ApplicationAdaptor(DesktopService *service) : QDBusAbstractAdaptor(service), m_service(service) {}

public Q_SLOTS:
    void Activate(const QVariantMap &platformData);
    void Open(const QStringList &uris, const QVariantMap &platformData);
    void ActivateAction(const QString &action, const QVariantList &parameter, const QVariantMap &platformData);

private:
    DesktopService *m_service;
};

// io.github.eddy.Eddy: what the window shows, for the desktop and scripts.
class EddyAdaptor final : public QDBusAbstractAdaptor
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "io.github.eddy.Eddy")
    Q_PROPERTY(qlonglong ShownQuestion READ shownQuestion)

public:
    explicit EddyAdaptor(DesktopService *service) : QDBusAbstractAdaptor(service), m_service(service) {}
    qlonglong shownQuestion() const { return m_service->shownQuestion(); }

private:
    DesktopService *m_service;
};

} // namespace Eddy
