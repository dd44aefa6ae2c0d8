// SPDX-License-Identifier: MIT
#include "sshkeyring.h"

#include "sshprompts.h"

#include <QDir>
#include <QFileInfo>

#include <libssh/libssh.h>

#include <cstring>

namespace pd {

namespace {

struct PromptContext {
    SshPrompts *prompts;
    QString node;
    bool declined = false;
};

int keyPassphraseCallback(const char *prompt, char *buf, size_t len, int echo, int verify, void *userdata)
{
    Q_UNUSED(echo);
    Q_UNUSED(verify);
    auto *context = static_cast<PromptContext *>(userdata);
    const int rc = copyPassphrase(context->prompts, context->node, prompt, buf, len);
    if (rc != 0)
        context->declined = true;
    return rc;
}

QString expandHome(const QString &path)
{
    if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

} // namespace

int copyPassphrase(SshPrompts *prompts, const QString &node, const char *prompt, char *buf, size_t len)
{
    if (!prompts || len == 0)
        return -1;
    std::optional<QByteArray> answer = prompts->passphrase(node, QString::fromUtf8(prompt));
    if (!answer)
        return -1;
    const size_t n = std::min(static_cast<size_t>(answer->size()), len - 1);
    std::memcpy(buf, answer->constData(), n);
    buf[n] = '\0';
    std::memset(answer->data(), 0, static_cast<size_t>(answer->size()));
    return 0;
}

SshKeyring::~SshKeyring()
{
    for (ssh_key key : std::as_const(m_keys))
        ssh_key_free(key);
}

ssh_key_struct *SshKeyring::privateKey(const QString &path, const QString &node, SshPrompts *prompts, QString *error)
{
    const QString file = expandHome(path);
    std::lock_guard lock(m_mutex); // one passphrase question per key, even with many nodes connecting
    if (ssh_key key = m_keys.value(file))
        return key;
    if (!QFileInfo(file).isReadable()) {
        *error = QStringLiteral("identity file %1 does not exist or is not readable").arg(file);
        return nullptr;
    }
    PromptContext context { prompts, node };
    ssh_key key = nullptr;
    std::lock_guard promptLock(promptMutex);
    const int rc
        = ssh_pki_import_privkey_file(file.toLocal8Bit().constData(), nullptr, keyPassphraseCallback, &context, &key);
    if (rc != SSH_OK || !key) {
        *error = context.declined
            ? QStringLiteral("identity file %1 is encrypted and no passphrase was given").arg(file)
            : QStringLiteral("cannot load identity file %1 (wrong passphrase or not a private key)").arg(file);
        return nullptr;
    }
    m_keys.insert(file, key);
    return key;
}

} // namespace pd
