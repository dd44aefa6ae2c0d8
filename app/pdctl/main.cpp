// SPDX-License-Identifier: MIT
#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream(stderr) << "usage: pdctl profile validate|import|show ...\n";
    return 2;
}
