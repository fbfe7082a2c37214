using System.Buffers;
using Exchange.Fix.Session;

namespace Exchange.Fix.Tests.Session;

/// <summary>Captures each outbound message (parsed back to fields) and every disconnect request.</summary>
internal sealed class RecordingTransport : ISessionTransport
{
    private readonly ArrayBufferWriter<byte> _output = new();
    private int _consumed;

    public IBufferWriter<byte> Output => _output;

    public List<SentMessage> Sent { get; } = [];

    public List<DisconnectReason> Disconnects { get; } = [];

    public bool IsDisconnected => Disconnects.Count > 0;

    public void MessageWritten()
    {
        Sent.Add(new SentMessage(_output.WrittenSpan[_consumed..]));
        _consumed = _output.WrittenCount;
    }

    public void Disconnect(DisconnectReason reason) => Disconnects.Add(reason);
}
