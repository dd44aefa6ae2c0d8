// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profileimporter.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTimer;

// File ▸ Import Cluster…: the importers pdctl has (the proxy's command line, launcher parameters,
// ranktable.json, the engines' own start scripts, container and set_env.sh scripts) in one form, with
// a live preview of the profile they give: its nodes and engines, and every import error, warning
// and validation problem, before anything is saved. Save writes the profile (atomically) and emits
// saved(path); the main window opens it. Files are read here, on the GUI thread, capped (1 MB per
// script, 8 MB per rank table); start scripts on other hosts are pdctl's (`HOST:FILE`), never fetched
// from the GUI thread.
namespace pd {

class ImportDialog final : public QDialog {
    Q_OBJECT
public:
    explicit ImportDialog(QWidget *parent = nullptr);

    // The form's fields (tests and the command palette fill them).
    void setProxyCommandLine(const QString &text);
    void setLaunchers(const QStringList &lines);
    void setRanktablePath(const QString &path);
    void setStartScripts(const QStringList &paths);
    void setContainer(const QString &tool, const QString &name);
    void setEnvScripts(const QStringList &paths);
    void setClusterName(const QString &name);
    void setProxyGeneration(const QString &generation); // "" (from the sources), "main", "v0.9.1-dev"

    // Builds the profile from the form now (the form also does it 300 ms after the last edit).
    void refreshPreview();
    const ImportResult &result() const { return m_result; }
    bool canSave() const { return m_canSave; }
    QString previewText() const;     // what the preview pane shows, as plain text
    QString problemsText() const;    // the problems pane, one per line

    // Writes the previewed profile to `path`; false with *error when it cannot (or errors block it).
    bool saveTo(const QString &path, QString *error);

Q_SIGNALS:
    void saved(const QString &path);

private:
    void schedulePreview();
    void addStartScripts();
    void browseRanktable();
    void saveDialog();

    QPlainTextEdit *m_proxy;
    QComboBox *m_generation;
    QPlainTextEdit *m_launchers;
    QLineEdit *m_ranktable;
    QListWidget *m_scripts;
    QComboBox *m_containerTool;
    QLineEdit *m_containerName;
    QPlainTextEdit *m_envScripts;
    QLineEdit *m_name;
    QPlainTextEdit *m_preview;
    QPlainTextEdit *m_problems;
    QLabel *m_verdict;
    QPushButton *m_save;
    QTimer *m_debounce;
    ImportResult m_result;
    bool m_canSave = false;
};

} // namespace pd
