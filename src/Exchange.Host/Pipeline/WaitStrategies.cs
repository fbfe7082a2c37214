using System.Diagnostics.CodeAnalysis;

namespace Exchange.Host.Pipeline;

/// <summary>Creates and parses wait strategies.</summary>
internal static class WaitStrategies
{
    /// <summary>The configuration names, for error messages.</summary>
    public static string AllowedNames => string.Join(", ", Enum.GetNames<WaitStrategyKind>());

    /// <summary>Parses a configuration value: a name, case-insensitive; false for anything else (numbers, lists).</summary>
    public static bool TryParse(string? value, out WaitStrategyKind kind)
    {
        string trimmed = value?.Trim() ?? string.Empty;
        foreach (WaitStrategyKind candidate in Enum.GetValues<WaitStrategyKind>())
        {
            if (string.Equals(candidate.ToString(), trimmed, StringComparison.OrdinalIgnoreCase))
            {
                kind = candidate;
                return true;
            }
        }

        kind = default;
        return false;
    }

    /// <summary>Parses a configuration value; the exception names the key and the allowed values.</summary>
    public static WaitStrategyKind Parse(string? value, string configurationKey)
    {
        if (TryParse(value, out WaitStrategyKind kind))
        {
            return kind;
        }

        throw new ArgumentException(
            $"Invalid wait strategy '{value}' for '{configurationKey}'. Allowed values: {AllowedNames}.", nameof(value));
    }

    /// <summary>A strategy instance for one processor of the ring behind <paramref name="sequencer"/>.</summary>
    public static IWaitStrategy Create(WaitStrategyKind kind, Sequencer sequencer)
    {
        switch (kind)
        {
            case WaitStrategyKind.BusySpin:
            case WaitStrategyKind.Yielding:
            case WaitStrategyKind.Sleeping:
                return new BackOffWaitStrategy(kind);
            case WaitStrategyKind.Blocking:
                sequencer.Signal.Enable();
                return new BlockingWaitStrategy(sequencer.Signal);
            default:
                ThrowUnknown(kind);
                return null;
        }
    }

    [DoesNotReturn]
    private static void ThrowUnknown(WaitStrategyKind kind) =>
        throw new ArgumentOutOfRangeException(nameof(kind), kind, $"Allowed values: {AllowedNames}.");
}
