// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

class QCoreApplication;

// Loads the console's translation for a language before any window is built: pdconsole_<lang>.qm from
// the embedded resources (":/i18n", built by qt_add_translations from resources/translations/), and
// Qt's own qtbase_<lang>.qm from QLibraryInfo::TranslationsPath when the system has it. English is
// the source language: nothing to load. The translators are children of the application.
namespace pd {

struct TranslationLoad {
    bool loaded = false; // the console's own translation is installed
    QStringList notes; // what was not found (a missing Qt translation is a note, not an error)
};

TranslationLoad installTranslations(QCoreApplication *app, const QString &language,
    const QString &resourceDir = QStringLiteral(":/i18n"), const QString &baseName = QStringLiteral("pdconsole"));

} // namespace pd
