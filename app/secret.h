#pragma once

#include <QString>
#include <string_view>

namespace Eddy {

// Task ids and bearer tokens are secrets: anything that reaches a log, a window title or an error
// message shows at most this short prefix ("3f9a1c…"), never the whole value.
QString redactSecret(QStringView secret);
QString redactSecret(std::string_view secret);

} // namespace Eddy
