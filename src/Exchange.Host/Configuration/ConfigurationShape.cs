using System.Globalization;
using System.Reflection;
using Microsoft.Extensions.Configuration;

namespace Exchange.Host.Configuration;

/// <summary>
/// Finds, before binding, the two mistakes the configuration binder reports badly or not at all. A number or flag
/// in the wrong form (Listen:Port=abc) stops the binder with the CLR type's name and nothing about what is allowed.
/// A list item at a skipped or non-numeric index (Sessions:5:TargetCompId=NEW over a two-session file) is bound as
/// the next item, so the venue would quietly start with an extra session whose other settings are code defaults.
/// Both are reported naming the key and what it may be. Unknown keys are left to the binder, which names them.
/// </summary>
internal static class ConfigurationShape
{
    /// <summary>Every problem under <paramref name="section"/>, which binds to <paramref name="optionsType"/>.</summary>
    public static List<string> Check(IConfigurationSection section, Type optionsType)
    {
        var errors = new List<string>();
        RefuseValue(section, errors);
        CheckObject(section, optionsType, errors);
        return errors;
    }

    /// <summary>
    /// A section (an object or a list) given a value of its own: the binder skips a value it cannot turn into the
    /// section's type, so Venue:Journal=/path would be accepted and the journal left where it was.
    /// </summary>
    private static void RefuseValue(IConfigurationSection section, List<string> errors)
    {
        if (section.Value is { Length: > 0 } value)
        {
            errors.Add($"{section.Path}: '{value}' is not allowed: {section.Key} is a section; set its keys ({section.Path}:<key>=...).");
        }
    }

    private static void CheckObject(IConfigurationSection section, Type type, List<string> errors)
    {
        foreach (IConfigurationSection child in section.GetChildren())
        {
            // Configuration keys are case-insensitive, as the binder matches them.
            PropertyInfo? property = type.GetProperty(
                child.Key, BindingFlags.Public | BindingFlags.Instance | BindingFlags.IgnoreCase);
            if (property is not null)
            {
                CheckMember(child, property.PropertyType, errors);
            }
        }
    }

    private static void CheckMember(IConfigurationSection section, Type type, List<string> errors)
    {
        if (type == typeof(int) || type == typeof(long))
        {
            CheckWholeNumber(section, type == typeof(int), errors);
        }
        else if (type == typeof(bool))
        {
            // The binder leaves a setting with an empty value at its default, so an empty value is not refused either.
            if (section.Value is { Length: > 0 } value && !bool.TryParse(value, out _))
            {
                errors.Add($"{section.Path}: '{value}' is not allowed. Allowed values: true, false.");
            }
        }
        else if (type.IsGenericType && type.GetGenericTypeDefinition() == typeof(List<>))
        {
            CheckList(section, type.GetGenericArguments()[0], errors);
        }
        else if (type.IsClass && type != typeof(string))
        {
            RefuseValue(section, errors);
            CheckObject(section, type, errors);
        }
    }

    private static void CheckWholeNumber(IConfigurationSection section, bool is32Bit, List<string> errors)
    {
        if (section.Value is not { Length: > 0 } value)
        {
            return; // Empty: the binder leaves the setting at its default.
        }

        // The forms the (source-generated) binder parses: NumberStyles.Integer, so surrounding white space is allowed.
        bool parsed = is32Bit
            ? int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out _)
            : long.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out _);
        if (!parsed)
        {
            string limit = is32Bit ? "2,147,483,647" : "9,223,372,036,854,775,807";
            errors.Add($"{section.Path}: '{value}' is not a whole number (digits, an optional sign, at most {limit}).");
        }
    }

    /// <summary>
    /// List items must be numbered 0, 1, 2 … without gaps, as a JSON array's are. An override may change an existing
    /// item or add the next one; anything else is refused rather than bound as some other item.
    /// </summary>
    private static void CheckList(IConfigurationSection section, Type itemType, List<string> errors)
    {
        RefuseValue(section, errors);
        var items = new List<(int Index, IConfigurationSection Item)>();
        var numbered = new HashSet<int>();
        foreach (IConfigurationSection item in section.GetChildren())
        {
            // Only the plain form names an existing item: "00" is another key than "0", which the binder adds as one
            // more item.
            if (int.TryParse(item.Key, NumberStyles.None, CultureInfo.InvariantCulture, out int index)
                && item.Key == index.ToString(CultureInfo.InvariantCulture))
            {
                items.Add((index, item));
                numbered.Add(index);
            }
            else
            {
                items.Add((-1, item));
            }
        }

        int next = 0;
        while (numbered.Contains(next))
        {
            next++;
        }

        string allowed = next == 0 ? "0 (a new first item)" : $"0 to {next - 1} for an existing item, {next} for a new one";
        foreach ((int index, IConfigurationSection item) in items)
        {
            if (index < 0)
            {
                errors.Add($"{item.Path}: '{item.Key}' is not a list index. Allowed values: {allowed}.");
            }
            else if (index > next)
            {
                errors.Add($"{item.Path}: index {index} skips {next} (it would be bound as the next item, with every other "
                    + $"setting at its code default). Allowed values: {allowed}.");
            }
            else
            {
                CheckMember(item, itemType, errors);
            }
        }
    }
}
