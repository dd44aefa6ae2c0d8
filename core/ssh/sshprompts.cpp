// SPDX-License-Identifier: MIT
#include "sshprompts.h"

namespace pd {

FixedSshPrompts::FixedSshPrompts(NewHostKeys newHostKeys, PassphraseSource passphrase)
    : m_newHostKeys(newHostKeys)
    , m_passphrase(std::move(passphrase))
{
}

void FixedSshPrompts::setNewHostKeys(NewHostKeys newHostKeys)
{
    std::lock_guard lock(m_mutex);
    m_newHostKeys = newHostKeys;
}

bool FixedSshPrompts::trustNewHostKey(const HostKeyInfo &key)
{
    std::lock_guard lock(m_mutex);
    m_asked.append(key);
    return m_newHostKeys == NewHostKeys::Accept;
}

std::optional<QByteArray> FixedSshPrompts::passphrase(const QString &node, const QString &prompt)
{
    Q_UNUSED(node);
    PassphraseSource source;
    {
        std::lock_guard lock(m_mutex);
        ++m_passphraseRequests;
        source = m_passphrase;
    }
    if (!source)
        return std::nullopt;
    return source(prompt);
}

QList<HostKeyInfo> FixedSshPrompts::askedHostKeys() const
{
    std::lock_guard lock(m_mutex);
    return m_asked;
}

int FixedSshPrompts::passphraseRequests() const
{
    std::lock_guard lock(m_mutex);
    return m_passphraseRequests;
}

} // namespace pd
