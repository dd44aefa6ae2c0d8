<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<!-- A tiny translation for tst_translations: the window title without a profile, and a few words built in
     core/ (each in the context lupdate files it under). -->
<TS version="2.1" language="zh_CN">
<context>
    <name>pd::MainWindow</name>
    <message>
        <source>pdconsole</source>
        <translation>pdconsole 控制台</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
</context>
<context>
    <name>pd::Triage</name>
    <message>
        <source>Engine stalled</source>
        <translation>引擎停滞</translation>
    </message>
</context>
<context>
    <name>pd::EngineState</name>
    <message>
        <source>Stalled</source>
        <translation>停滞</translation>
    </message>
</context>
<context>
    <name>pd::ScaleOps</name>
    <message>
        <source>Preflight</source>
        <translation>预检</translation>
    </message>
    <message>
        <source>stop</source>
        <comment>operation kind</comment>
        <translation>停止</translation>
    </message>
</context>
<context>
    <name>pd::EngineActions</name>
    <message>
        <source>the console is in read-only mode</source>
        <translation>控制台处于只读模式</translation>
    </message>
</context>
<context>
    <name>pd::ProfileValidator</name>
    <message>
        <source>the prefill pool is empty: no node with role &quot;prefill&quot; runs an engine</source>
        <translation>prefill 池为空：没有角色为“prefill”的节点运行引擎</translation>
    </message>
</context>
</TS>
