// SPDX-License-Identifier: MIT
#include "settings/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace pd {

TranslationLoad installTranslations(
    QCoreApplication *app, const QString &language, const QString &resourceDir, const QString &baseName)
{
    TranslationLoad result;
    if (language.isEmpty() || language == QLatin1String("en"))
        return result;
    QLocale::setDefault(QLocale(language)); // numbers and dates as the language writes them
    auto *own = new QTranslator(app);
    if (own->load(baseName + QLatin1Char('_') + language, resourceDir) && QCoreApplication::installTranslator(own)) {
        result.loaded = true;
    } else {
        result.notes.append(QStringLiteral("no %1 translation of the console in %2").arg(language, resourceDir));
        delete own;
    }
    auto *qt = new QTranslator(app);
    const QString qtDir = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
    if (qt->load(QStringLiteral("qtbase_") + language, qtDir)) {
        QCoreApplication::installTranslator(qt);
    } else {
        result.notes.append(QStringLiteral("no Qt translation qtbase_%1.qm in %2").arg(language, qtDir));
        delete qt;
    }
    return result;
}

} // namespace pd
