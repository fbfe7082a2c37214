using Exchange.Core.Strategies;

namespace Exchange.Core.Plugins;

/// <summary>
/// One family of pluggable strategies: its contract, the kind of type the engine needs for it, and the naming rule
/// (config name = type name without <see cref="Suffix"/>). The catalog and the engine factory share these checks.
/// </summary>
internal sealed class StrategyFamily
{
    public static readonly StrategyFamily OrderList = new("order list", "OrderList", typeof(IOrderList), valueType: true);

    public static readonly StrategyFamily LevelIndex =
        new("price-level index", "LevelIndex", typeof(IPriceLevelIndex), valueType: true);

    public static readonly StrategyFamily MarketDataStore =
        new("market-data store", "MarketDataStore", typeof(IMarketDataStore), valueType: false);

    public static readonly IReadOnlyList<StrategyFamily> All = [OrderList, LevelIndex, MarketDataStore];

    private StrategyFamily(string displayName, string suffix, Type contract, bool valueType)
    {
        DisplayName = displayName;
        Suffix = suffix;
        Contract = contract;
        RequiresValueType = valueType;
    }

    /// <summary>How messages name the family, e.g. "order list".</summary>
    public string DisplayName { get; }

    /// <summary>Type-name suffix that config names leave out, e.g. "OrderList".</summary>
    public string Suffix { get; }

    public Type Contract { get; }

    /// <summary>
    /// True for families the engine is generic over with a struct constraint (direct calls); false for the market-data
    /// store, which the host creates by name (a class with a public parameterless constructor).
    /// </summary>
    public bool RequiresValueType { get; }

    /// <summary>Whether <paramref name="type"/> claims to be a member of this family (implements the contract).</summary>
    public bool IsImplementedBy(Type type) => !type.IsInterface && Contract.IsAssignableFrom(type);

    /// <summary>The configuration name of a valid member: its short name without the suffix.</summary>
    public string ConfigName(Type type) => type.Name[..^Suffix.Length];

    /// <summary>Why <paramref name="type"/> cannot serve as a strategy of this family, or null when it can.</summary>
    public string? FindProblem(Type type)
    {
        var what = $"{DisplayName} strategy {type.FullName}";
        if (!IsImplementedBy(type))
        {
            return $"The {what} does not implement {Contract.FullName}.";
        }

        if (type.ContainsGenericParameters)
        {
            return $"The {what} is an open generic type; strategies must be concrete types.";
        }

        if (RequiresValueType)
        {
            if (!type.IsValueType || Nullable.GetUnderlyingType(type) is not null)
            {
                return $"The {what} must be a struct: the engine is generic over it with a struct constraint so its calls are direct.";
            }

            if (type.IsByRefLike)
            {
                return $"The {what} must not be a ref struct: the engine stores it in arrays.";
            }
        }
        else
        {
            if (!type.IsClass || type.IsAbstract)
            {
                return $"The {what} must be a non-abstract class.";
            }

            if (type.GetConstructor(Type.EmptyTypes) is null)
            {
                return $"The {what} must have a public parameterless constructor so the host can create it by name.";
            }
        }

        if (type.Name.Length <= Suffix.Length || !type.Name.EndsWith(Suffix, StringComparison.Ordinal))
        {
            return $"The {what} must be named <Name>{Suffix}; its configuration name is the part before '{Suffix}'.";
        }

        return null;
    }

    /// <summary>Throws an <see cref="ArgumentException"/> naming the problem when the type cannot serve.</summary>
    public void EnsureValid(Type type, string parameterName)
    {
        ArgumentNullException.ThrowIfNull(type, parameterName);
        if (FindProblem(type) is { } problem)
        {
            throw new ArgumentException(problem, parameterName);
        }
    }
}
