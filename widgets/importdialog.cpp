// SPDX-License-Identifier: MIT
#include "importdialog.h"

#include "cluster/importfiles.h"
#include "cluster/profileformat.h"
#include "cluster/profilejson.h"
#include "cluster/profilevalidator.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace pd {

namespace {

// The preview is imported again this long after the last keystroke in a pasted text.
constexpr int kPreviewDebounceMs = 300;

QStringList nonEmptyLines(const QString &text)
{
    QStringList out;
    for (const QString &line : text.split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            out << line.trimmed();
    return out;
}

QPlainTextEdit *textBox(const QString &objectName, const QString &placeholder, int lines, QWidget *parent)
{
    auto *box = new QPlainTextEdit(parent);
    box->setObjectName(objectName);
    box->setPlaceholderText(placeholder);
    box->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    box->setFixedHeight(box->fontMetrics().lineSpacing() * lines + 14);
    box->setLineWrapMode(QPlainTextEdit::NoWrap);
    return box;
}

// The values each role's engines start with, a few lines per role.
QString roleLines(const Profile &profile)
{
    QStringList out;
    for (const Role role : {Role::Prefill, Role::Decode}) {
        const RoleConfig &c = profile.roleConfig(role);
        out << QStringLiteral("%1: %2 as \"%3\"").arg(roleName(role), c.modelPath.isEmpty() ? QStringLiteral("(no model)") : c.modelPath,
                                                     c.servedModelName);
        out << QStringLiteral("  max-model-len %1, max-num-batched-tokens %2, max-num-seqs %3, gpu-memory-utilization %4")
                   .arg(c.maxModelLen).arg(c.maxNumBatchedTokens).arg(c.maxNumSeqs).arg(c.gpuMemoryUtilization);
        out << QStringLiteral("  kv %1 %2, %3 DP groups")
                   .arg(QString::fromStdString(c.kvTransferConfig.value("kv_connector", std::string("(no connector)"))), c.kvRole(),
                        couplingName(c.dpCoupling));
        if (!c.additionalConfig.empty())
            out << QStringLiteral("  additional-config %1").arg(QString::fromStdString(c.additionalConfig.dump()));
        if (c.container.isSet())
            out << QStringLiteral("  in %1 container %2").arg(c.container.tool, c.container.name);
        for (const QString &script : c.envScripts)
            out << QStringLiteral("  source %1").arg(script);
        if (!c.env.isEmpty()) {
            QStringList env;
            for (const auto &[k, v] : c.env)
                env << k + QLatin1Char('=') + v;
            out << QStringLiteral("  env %1").arg(env.join(QLatin1Char(' ')));
        }
        if (!c.extraArgs.isEmpty())
            out << QStringLiteral("  extra %1").arg(c.extraArgs.join(QLatin1Char(' ')));
    }
    return out.join(QLatin1Char('\n'));
}

} // namespace

ImportDialog::ImportDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Import Cluster"));
    setObjectName(QStringLiteral("importDialog"));

    auto *form = new QFormLayout;
    m_proxy = textBox(QStringLiteral("importProxy"), tr("python load_balance_proxy_server_example.py --port 1025 --prefiller-hosts … (backslash lines are fine)"), 6, this);
    form->addRow(tr("Proxy command line"), m_proxy);
    m_generation = new QComboBox(this);
    m_generation->setObjectName(QStringLiteral("importGeneration"));
    m_generation->addItem(tr("From the sources"), QString());
    m_generation->addItem(QStringLiteral("main"), QStringLiteral("main"));
    m_generation->addItem(QStringLiteral("v0.9.1-dev"), QStringLiteral("v0.9.1-dev"));
    form->addRow(tr("Proxy generation"), m_generation);
    m_launchers = textBox(QStringLiteral("importLaunchers"), tr("one per node: 192.0.0.5: dp_size=64 dp_size_local=16 dp_rank_start=0 …"), 3, this);
    form->addRow(tr("Launcher parameters"), m_launchers);

    auto *ranktableRow = new QHBoxLayout;
    m_ranktable = new QLineEdit(this);
    m_ranktable->setObjectName(QStringLiteral("importRanktable"));
    m_ranktable->setPlaceholderText(tr("ranktable.json (optional)"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    ranktableRow->addWidget(m_ranktable, 1);
    ranktableRow->addWidget(browse);
    form->addRow(tr("Rank table"), ranktableRow);

    auto *scriptsRow = new QHBoxLayout;
    m_scripts = new QListWidget(this);
    m_scripts->setObjectName(QStringLiteral("importStartScripts"));
    m_scripts->setFixedHeight(m_scripts->fontMetrics().lineSpacing() * 3 + 12);
    auto *scriptButtons = new QVBoxLayout;
    auto *addScript = new QPushButton(tr("Add…"), this);
    auto *removeScript = new QPushButton(tr("Remove"), this);
    scriptButtons->addWidget(addScript);
    scriptButtons->addWidget(removeScript);
    scriptButtons->addStretch(1);
    scriptsRow->addWidget(m_scripts, 1);
    scriptsRow->addLayout(scriptButtons);
    form->addRow(tr("Start scripts"), scriptsRow);

    auto *containerRow = new QHBoxLayout;
    m_containerTool = new QComboBox(this);
    m_containerTool->setObjectName(QStringLiteral("importContainerTool"));
    m_containerTool->addItem(tr("No container"), QString());
    m_containerTool->addItem(QStringLiteral("docker"), QStringLiteral("docker"));
    m_containerTool->addItem(QStringLiteral("podman"), QStringLiteral("podman"));
    m_containerName = new QLineEdit(this);
    m_containerName->setObjectName(QStringLiteral("importContainerName"));
    m_containerName->setPlaceholderText(tr("container name, e.g. vllm_deepseek_pd"));
    containerRow->addWidget(m_containerTool);
    containerRow->addWidget(m_containerName, 1);
    form->addRow(tr("Engines run in"), containerRow);
    m_envScripts = textBox(QStringLiteral("importEnvScripts"), tr("one per line: …/ascend-toolkit/set_env.sh"), 2, this);
    form->addRow(tr("Environment scripts"), m_envScripts);
    m_name = new QLineEdit(QStringLiteral("imported"), this);
    m_name->setObjectName(QStringLiteral("importName"));
    form->addRow(tr("Cluster name"), m_name);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(form);
    leftLayout->addStretch(1);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_verdict = new QLabel(right);
    m_verdict->setObjectName(QStringLiteral("importVerdict"));
    m_verdict->setWordWrap(true);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    m_verdict->setFont(bold);
    m_preview = new QPlainTextEdit(right);
    m_preview->setObjectName(QStringLiteral("importPreview"));
    m_preview->setReadOnly(true);
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_problems = new QPlainTextEdit(right);
    m_problems->setObjectName(QStringLiteral("importProblems"));
    m_problems->setReadOnly(true);
    rightLayout->addWidget(m_verdict);
    rightLayout->addWidget(new QLabel(tr("Profile preview"), right));
    rightLayout->addWidget(m_preview, 3);
    rightLayout->addWidget(new QLabel(tr("Errors, warnings and validation"), right));
    rightLayout->addWidget(m_problems, 2);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_save = buttons->addButton(tr("Save Profile…"), QDialogButtonBox::AcceptRole);
    m_save->setObjectName(QStringLiteral("importSave"));
    m_save->setEnabled(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    resize(1200, 720);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kPreviewDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &ImportDialog::refreshPreview);
    for (QPlainTextEdit *box : {m_proxy, m_launchers, m_envScripts})
        connect(box, &QPlainTextEdit::textChanged, this, &ImportDialog::schedulePreview);
    for (QLineEdit *line : {m_ranktable, m_containerName, m_name})
        connect(line, &QLineEdit::textChanged, this, &ImportDialog::schedulePreview);
    for (QComboBox *box : {m_generation, m_containerTool})
        connect(box, &QComboBox::currentIndexChanged, this, &ImportDialog::schedulePreview);
    connect(browse, &QPushButton::clicked, this, &ImportDialog::browseRanktable);
    connect(addScript, &QPushButton::clicked, this, &ImportDialog::addStartScripts);
    connect(removeScript, &QPushButton::clicked, this, [this] {
        qDeleteAll(m_scripts->selectedItems());
        schedulePreview();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_save, &QPushButton::clicked, this, &ImportDialog::saveDialog);
    refreshPreview();
}

void ImportDialog::setProxyCommandLine(const QString &text) { m_proxy->setPlainText(text); }
void ImportDialog::setLaunchers(const QStringList &lines) { m_launchers->setPlainText(lines.join(QLatin1Char('\n'))); }
void ImportDialog::setRanktablePath(const QString &path) { m_ranktable->setText(path); }
void ImportDialog::setEnvScripts(const QStringList &paths) { m_envScripts->setPlainText(paths.join(QLatin1Char('\n'))); }
void ImportDialog::setClusterName(const QString &name) { m_name->setText(name); }

void ImportDialog::setStartScripts(const QStringList &paths)
{
    m_scripts->clear();
    m_scripts->addItems(paths);
    schedulePreview();
}

void ImportDialog::setContainer(const QString &tool, const QString &name)
{
    m_containerTool->setCurrentIndex(std::max(0, m_containerTool->findData(tool)));
    m_containerName->setText(name);
}

void ImportDialog::setProxyGeneration(const QString &generation)
{
    m_generation->setCurrentIndex(std::max(0, m_generation->findData(generation)));
}

void ImportDialog::schedulePreview()
{
    m_debounce->start();
}

void ImportDialog::refreshPreview()
{
    m_debounce->stop();
    ImportSources sources;
    QStringList readErrors;
    sources.proxyCommandLine = m_proxy->toPlainText();
    sources.launchers = nonEmptyLines(m_launchers->toPlainText());
    sources.clusterName = m_name->text().trimmed().isEmpty() ? QStringLiteral("imported") : m_name->text().trimmed();
    const QString generation = m_generation->currentData().toString();
    if (generation == QLatin1String("main"))
        sources.proxyGeneration = ProxyGeneration::Main;
    else if (generation == QLatin1String("v0.9.1-dev"))
        sources.proxyGeneration = ProxyGeneration::V091Dev;
    if (const QString path = m_ranktable->text().trimmed(); !path.isEmpty()) {
        QString why;
        if (const auto bytes = readImportFile(path, kMaxProfileBytes, tr("a rank table"), &why)) {
            sources.ranktable = *bytes;
            sources.ranktableName = QFileInfo(path).fileName();
        } else {
            readErrors << why;
        }
    }
    for (int i = 0; i < m_scripts->count(); ++i) {
        const QString path = m_scripts->item(i)->text();
        QString why;
        if (const auto bytes = readImportFile(path, kMaxStartScriptBytes, tr("a start script"), &why))
            sources.startScripts.append({QString::fromUtf8(*bytes), QFileInfo(path).fileName(), {}});
        else
            readErrors << why;
    }
    const QString tool = m_containerTool->currentData().toString();
    if (!tool.isEmpty() && !m_containerName->text().trimmed().isEmpty())
        sources.container = ContainerSpec{tool, m_containerName->text().trimmed()};
    sources.envScripts = nonEmptyLines(m_envScripts->toPlainText());

    const bool anySource = !sources.proxyCommandLine.trimmed().isEmpty() || !sources.launchers.isEmpty()
                           || !sources.ranktable.isEmpty() || !sources.startScripts.isEmpty();
    QStringList problems;
    m_canSave = false;
    if (!anySource && readErrors.isEmpty()) {
        m_result = ImportResult();
        m_preview->clear();
        m_problems->clear();
        m_verdict->setText(tr("Give at least one source: the proxy's command line, launcher parameters, a rank table or a start script."));
        m_save->setEnabled(false);
        return;
    }
    m_result = importProfile(sources);
    for (const QString &e : std::as_const(readErrors))
        problems << tr("error: %1").arg(e);
    for (const QString &e : std::as_const(m_result.errors))
        problems << tr("error: %1").arg(e);
    QList<ValidationIssue> issues;
    if (m_result.ok())
        issues = validateProfile(m_result.profile);
    for (const ValidationIssue &issue : std::as_const(issues))
        problems << (issue.severity == Severity::Error ? tr("error: %1: %2") : tr("warning: %1: %2")).arg(issue.pointer, issue.message);
    for (const QString &w : std::as_const(m_result.warnings))
        problems << tr("warning: %1").arg(w);
    m_problems->setPlainText(problems.join(QLatin1Char('\n')));
    const bool importOk = m_result.ok() && readErrors.isEmpty();
    if (importOk) {
        m_preview->setPlainText(QStringLiteral("%1  (%2 launcher, proxy %3)\n\n%4\n%5")
                                    .arg(m_result.profile.name, flavorName(m_result.profile.launchFlavor),
                                         proxyGenerationName(m_result.profile.proxy.generation), profileSummaryTable(m_result.profile),
                                         roleLines(m_result.profile)));
    } else {
        m_preview->setPlainText(tr("No profile: fix the errors listed below."));
    }
    const bool validationErrors = hasErrors(issues);
    m_canSave = importOk;
    m_save->setEnabled(m_canSave);
    const int nodes = int(m_result.profile.nodes.size());
    const int engines = importOk ? int(m_result.profile.engines().size()) : 0;
    if (!importOk)
        m_verdict->setText(tr("Cannot import: %n error(s).", nullptr, int(readErrors.size() + m_result.errors.size())));
    else if (validationErrors)
        m_verdict->setText(tr("Imported %1 node(s), %2 engine(s), with validation errors: it can be saved and fixed, but not run as is.")
                               .arg(nodes).arg(engines));
    else
        m_verdict->setText(tr("Imported %1 node(s), %2 engine(s); %n warning(s).", nullptr, int(problems.size())).arg(nodes).arg(engines));
}

QString ImportDialog::previewText() const { return m_preview->toPlainText(); }
QString ImportDialog::problemsText() const { return m_problems->toPlainText(); }

bool ImportDialog::saveTo(const QString &path, QString *error)
{
    if (m_debounce->isActive())
        refreshPreview();
    if (!m_canSave) {
        *error = tr("the import has errors; nothing was saved");
        return false;
    }
    const QByteArray bytes = serializeProfile(m_result.profile);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = tr("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    Q_EMIT saved(path);
    return true;
}

void ImportDialog::addStartScripts()
{
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Add Start Scripts"), QString(),
                                                            tr("Shell scripts (*.sh);;All files (*)"));
    m_scripts->addItems(paths);
    schedulePreview();
}

void ImportDialog::browseRanktable()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Rank Table"), QString(), tr("JSON (*.json);;All files (*)"));
    if (!path.isEmpty())
        m_ranktable->setText(path);
}

void ImportDialog::saveDialog()
{
    refreshPreview();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Imported Profile"), m_result.profile.name + QStringLiteral(".json"),
                                                      tr("Cluster profiles (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveTo(path, &error)) {
        m_verdict->setText(error);
        return;
    }
    accept();
}

} // namespace pd
