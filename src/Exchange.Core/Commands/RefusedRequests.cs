using Exchange.Core.Events;

namespace Exchange.Core.Commands;

/// <summary>
/// Cancel and replace requests the gateway refused, sent on to the engine so that their OrderCancelReject reports the
/// order's state (<see cref="CommandType.CancelRefused"/>). The reason travels in <see cref="Command.Quantity"/>, which
/// a refused request no longer needs, so the command's journalled layout stays as it is.
/// </summary>
public static class RefusedRequests
{
    /// <summary>Turns a mapped (or partly mapped) Cancel or Replace into its refusal for <paramref name="reason"/>.</summary>
    public static void Refuse(ref Command command, RejectReason reason)
    {
        if (command.Type is not (CommandType.Cancel or CommandType.Replace) || reason == RejectReason.None)
        {
            throw new ArgumentException($"Only a cancel or replace can be refused, for a reason ({command.Type}, {reason}).", nameof(command));
        }

        command.Type = command.Type == CommandType.Cancel ? CommandType.CancelRefused : CommandType.ReplaceRefused;
        command.Quantity = (long)reason;
    }

    public static bool IsRefusal(in Command command) => command.Type is CommandType.CancelRefused or CommandType.ReplaceRefused;

    /// <summary>The request a refusal answers (Cancel or Replace); any other command's own type.</summary>
    public static CommandType RequestOf(in Command command) => command.Type switch
    {
        CommandType.CancelRefused => CommandType.Cancel,
        CommandType.ReplaceRefused => CommandType.Replace,
        _ => command.Type,
    };

    /// <summary>The refusal's reason; <see cref="RejectReason.UnknownCommand"/> for a value no build wrote.</summary>
    public static RejectReason ReasonOf(in Command command) =>
        command.Quantity is > 0 and <= byte.MaxValue && Enum.IsDefined((RejectReason)command.Quantity)
            ? (RejectReason)command.Quantity
            : RejectReason.UnknownCommand;
}
