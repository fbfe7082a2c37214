using System.Diagnostics.CodeAnalysis;
using System.Globalization;

namespace Exchange.AotRunner;

/// <summary>Command-line settings of one runner invocation.</summary>
internal sealed record RunnerOptions
{
    /// <summary>"OrderList+LevelIndex" configuration names, or "all" for every compiled-in combination.</summary>
    public string Combination { get; init; } = "IntrusiveList+SortedArray";

    /// <summary>Commands per measured round (rounded up to whole replays of the workload block).</summary>
    public long Commands { get; init; } = 5_000_000;

    public int Rounds { get; init; } = 5;

    public int Books { get; init; } = 1_000;

    public int RestingOrders { get; init; } = 50_000;

    public static bool TryParse(string[] args, [NotNullWhen(true)] out RunnerOptions? options, [NotNullWhen(false)] out string? error)
    {
        options = new RunnerOptions();
        error = null;
        for (int i = 0; i < args.Length; i++)
        {
            if (i + 1 >= args.Length)
            {
                break;
            }

            string value = args[i + 1];
            switch (args[i])
            {
                case "--combination": options = options with { Combination = value }; break;
                case "--commands": options = options with { Commands = long.Parse(value, NumberStyles.AllowThousands, CultureInfo.InvariantCulture) }; break;
                case "--rounds": options = options with { Rounds = int.Parse(value, CultureInfo.InvariantCulture) }; break;
                case "--books": options = options with { Books = int.Parse(value, CultureInfo.InvariantCulture) }; break;
                case "--resting": options = options with { RestingOrders = int.Parse(value, NumberStyles.AllowThousands, CultureInfo.InvariantCulture) }; break;
                default: options = null; error = $"unknown option '{args[i]}'"; return false;
            }

            i++;
        }

        if (args.Length % 2 != 0)
        {
            options = null;
            error = $"option '{args[^1]}' has no value";
            return false;
        }

        return true;
    }
}
