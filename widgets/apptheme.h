// SPDX-License-Identifier: MIT
#pragma once

#include "settings/consolesettings.h"

#include <QPalette>

// The console's looks: the Fusion style with a light or a dark palette on the QApplication (or the
// platform's own palette for Theme::System). Views that paint their own canvas (the topology) and the
// state colours ask isDark() for their dark variants, so every state stays distinguishable on both.
namespace pd {

QPalette lightPalette();
QPalette darkPalette();
void applyTheme(Theme theme); // GUI thread, QApplication alive; repaints every widget
bool isDark(const QPalette &palette); // the window colour is darker than mid grey
bool isDarkTheme(); // isDark(QApplication::palette())

} // namespace pd
