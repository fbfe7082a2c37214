using System.Text;
using Exchange.Fix.Session;

namespace Exchange.Fix.Tests.Session;

/// <summary>Records what the session delivers upward.</summary>
internal sealed class RecordingApplication : ISessionApplication
{
    public List<(int Seq, string MsgType, string Raw)> Delivered { get; } = [];

    public int Logons { get; private set; }

    public List<DisconnectReason> Disconnects { get; } = [];

    public List<int> DeliveredSeqs => Delivered.ConvertAll(d => d.Seq);

    public void OnApplicationMessage(FixSession session, in InboundMessage message) =>
        Delivered.Add((message.MsgSeqNum, Encoding.ASCII.GetString(message.MsgType), Encoding.ASCII.GetString(message.Raw)));

    public void OnLogon(FixSession session) => Logons++;

    public void OnDisconnected(FixSession session, DisconnectReason reason) => Disconnects.Add(reason);
}
