using System.Reflection;
using System.Runtime.CompilerServices;
using System.Text;
using Exchange.Core.Storage;

namespace Exchange.Host.Journal;

/// <summary>
/// A checksum of a struct's field layout (names, types, inline array lengths, recursively), stored in the journal
/// header so a journal written by a build with a different <c>Command</c> layout is refused at open instead of being
/// replayed as garbage. Size alone would miss reordered or retyped fields of equal size.
/// </summary>
internal static class LayoutFingerprint
{
    public static uint Of<T>()
        where T : unmanaged
    {
        var description = new StringBuilder();
        Describe(typeof(T), description, depth: 0);
        description.Append("size=").Append(Unsafe.SizeOf<T>());
        return Crc32.Compute(Encoding.UTF8.GetBytes(description.ToString()));
    }

    private static void Describe(Type type, StringBuilder description, int depth)
    {
        description.Append(type.FullName);
        if (type.IsEnum)
        {
            description.Append(':').Append(Enum.GetUnderlyingType(type).FullName).Append(';');
            return;
        }

        if (type.IsPrimitive || depth > 8)
        {
            description.Append(';');
            return;
        }

        if (type.GetCustomAttribute<InlineArrayAttribute>() is { } inlineArray)
        {
            description.Append('[').Append(inlineArray.Length).Append(']');
        }

        description.Append('{');
        FieldInfo[] fields = type.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic);
        Array.Sort(fields, static (left, right) => left.MetadataToken.CompareTo(right.MetadataToken));
        foreach (FieldInfo field in fields)
        {
            description.Append(field.Name).Append(':');
            Describe(field.FieldType, description, depth + 1);
        }

        description.Append('}');
    }
}
